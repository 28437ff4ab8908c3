package io.jobmon.sim;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuotaBuilder;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder;
import io.jobmon.sim.control.Kube;
import io.jobmon.sim.kubelet.SystemPods;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a fresh cluster has before any job: namespaces, the PriorityClasses job-service's workloads name
 * ({@code jobmon-low/normal/high}), the built-in system classes and the sim's serving class, and the configured
 * ResourceQuotas.
 */
public final class SimBootstrap {

    public static final String SERVING_PRIORITY_CLASS = "sim-serving-critical";
    public static final int SERVING_PRIORITY = 1_000_000;

    /** A GPU quota of a namespace: {@code requests.nvidia.com/gpu} hard limit. */
    public record GpuQuota(String namespace, int gpus) {
    }

    private SimBootstrap() {
    }

    public static void run(Kube kube, String jobNamespace, List<GpuQuota> quotas) {
        Set<String> namespaces = new LinkedHashSet<>(List.of("default", "kube-system", "kube-public", "kube-node-lease",
                SystemPods.GPU_OPERATOR, SystemPods.MONITORING, "inference", jobNamespace));
        quotas.forEach(q -> namespaces.add(q.namespace()));
        for (String ns : namespaces) {
            kube.client().namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns)
                    .addToLabels("kubernetes.io/metadata.name", ns).endMetadata().build()).create();
        }
        Map<String, Integer> classes = Map.of("jobmon-low", 1_000, "jobmon-normal", 10_000, "jobmon-high", 100_000,
                SERVING_PRIORITY_CLASS, SERVING_PRIORITY, "system-cluster-critical", 2_000_000_000,
                "system-node-critical", 2_000_001_000);
        classes.forEach((name, value) -> kube.create(new PriorityClassBuilder().withNewMetadata().withName(name)
                .endMetadata().withValue(value).withPreemptionPolicy("PreemptLowerPriority")
                .withDescription("jobmon sim priority class " + name).build()));
        for (GpuQuota q : quotas) {
            kube.create(new ResourceQuotaBuilder().withNewMetadata().withName("gpu-quota").withNamespace(q.namespace())
                    .endMetadata().withNewSpec().addToHard("requests.nvidia.com/gpu", new Quantity(String.valueOf(q.gpus())))
                    .endSpec().build());
        }
    }
}
