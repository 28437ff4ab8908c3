package io.jobmon.chart;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.TemplateCommand;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/** The chart rendered by `helm template` (Helm in the JVM, helm-java) as Kubernetes objects. */
final class Rendered {

    static final String RELEASE = "jobmon";
    static final String NAMESPACE = "jobmon";
    /** The Kubernetes version the chart is rendered for (its floor is 1.25). */
    static final String KUBE_VERSION = "1.30.0";
    private static final Map<String, Rendered> CACHE = new ConcurrentHashMap<>();
    private static final Pattern DOCUMENT_SEPARATOR = Pattern.compile("(?m)^---\\s*$");

    final String label;
    final List<HasMetadata> objects;

    private Rendered(String label, List<HasMetadata> objects) {
        this.label = label;
        this.objects = objects;
    }

    static Rendered defaults() {
        return CACHE.computeIfAbsent("default values", k -> render(k));
    }

    static Rendered onPrem() {
        return CACHE.computeIfAbsent("on-prem values", k -> render(k, Repo.ONPREM_VALUES));
    }

    static List<Rendered> both() {
        return List.of(defaults(), onPrem());
    }

    /** helm template with the chart's values.yaml, then these values files in order. */
    static Rendered render(String label, Path... valuesFiles) {
        TemplateCommand template = new Helm(Repo.CHART).template().withName(RELEASE).withNamespace(NAMESPACE)
                .withKubeVersion(KUBE_VERSION);
        for (Path values : valuesFiles) {
            template = template.withValuesFile(values);
        }
        String yaml = template.call();
        try {
            // Kept for a person reading a failure: target/rendered/<label>.yaml
            Path out = Path.of("target/rendered", label.replace(' ', '-') + ".yaml");
            java.nio.file.Files.createDirectories(out.getParent());
            java.nio.file.Files.writeString(out, yaml);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        List<HasMetadata> objects = new ArrayList<>();
        for (String document : DOCUMENT_SEPARATOR.split(yaml)) {
            if (document.lines().anyMatch(l -> l.startsWith("kind:"))) {
                objects.add(Serialization.unmarshal(document, HasMetadata.class));
            }
        }
        return new Rendered(label, List.copyOf(objects));
    }

    <T extends HasMetadata> List<T> all(Class<T> type) {
        return objects.stream().filter(type::isInstance).map(type::cast).toList();
    }

    List<GenericKubernetesResource> custom(String kind) {
        return objects.stream().filter(o -> o instanceof GenericKubernetesResource && kind.equals(o.getKind()))
                .map(GenericKubernetesResource.class::cast).toList();
    }

    <T extends HasMetadata> T named(Class<T> type, String name) {
        return all(type).stream().filter(o -> name.equals(o.getMetadata().getName())).findFirst()
                .orElseThrow(() -> new AssertionError(label + ": no " + type.getSimpleName() + " " + name));
    }

    ConfigMap configMap(String name) {
        return named(ConfigMap.class, name);
    }

    /** Object name of a service's Deployment, Service, ConfigMap... */
    static String objectName(String service) {
        return RELEASE + "-" + service;
    }

    @Override
    public String toString() {
        return label;
    }
}
