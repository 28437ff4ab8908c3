package io.jobmon.metrics.scrape;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.jobmon.metrics.config.MetricsConfig;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The Kubernetes client of each configured cluster: its kubeconfig's, else the service's own (in-cluster). */
@ApplicationScoped
public class ClusterClients {

    private final MetricsConfig config;
    private final Instance<KubernetesClient> defaultClient;
    private final Map<String, KubernetesClient> owned = new ConcurrentHashMap<>();

    public ClusterClients(MetricsConfig config, Instance<KubernetesClient> defaultClient) {
        this.config = config;
        this.defaultClient = defaultClient;
    }

    @PreDestroy
    void close() {
        owned.values().forEach(KubernetesClient::close);
    }

    /** The client of a configured cluster; null when none is configured under that name. */
    public KubernetesClient of(String name) {
        MetricsConfig.Cluster cluster = config.discovery().clusters().get(name);
        if (cluster == null) {
            return null;
        }
        if (cluster.kubeconfig().isEmpty()) {
            return defaultClient.get();
        }
        return owned.computeIfAbsent(name, n -> {
            Path path = Path.of(cluster.kubeconfig().get());
            try {
                Config c = Config.fromKubeconfig(cluster.context().orElse(null), Files.readString(path), path.toString());
                return new KubernetesClientBuilder().withConfig(c).build();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read kubeconfig " + path, e);
            }
        });
    }
}
