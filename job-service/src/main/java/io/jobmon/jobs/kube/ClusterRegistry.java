package io.jobmon.jobs.kube;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.jobmon.contracts.config.ClustersConfig;
import io.jobmon.contracts.config.ClustersConfig.Cluster;
import io.jobmon.jobs.config.JobsConfig;
import io.jobmon.jobs.job.service.SpecRules.ClusterInfo;
import io.jobmon.jobs.job.service.SpecRules.Queue;
import java.util.List;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The configured clusters and, for {@code kubernetes} ones, their clients. A client is made on first use, never
 * at start-up, so the service starts (and its tests run) without reaching any cluster.
 */
@ApplicationScoped
public class ClusterRegistry {

    private final ClustersConfig config;
    private final Instance<KubernetesClient> defaultClient;
    private final String defaultQueue;
    private final Map<String, KubernetesClient> own = new ConcurrentHashMap<>();

    public ClusterRegistry(ClustersConfig config, Instance<KubernetesClient> defaultClient, JobsConfig jobs) {
        this.config = config;
        this.defaultClient = defaultClient;
        this.defaultQueue = jobs.defaultQueue();
    }

    /**
     * Cluster name → region and queues: those of {@code queues} and {@code pools}, each with what its pool
     * definition allows; a cluster that names none has {@code jobmon.jobs.default-queue} only.
     */
    public Map<String, ClusterInfo> infos() {
        Map<String, ClusterInfo> out = new TreeMap<>();
        config.clusters().forEach((name, c) -> {
            List<String> names = c.queueNames().isEmpty() ? List.of(defaultQueue) : c.queueNames();
            List<Queue> queues = names.stream().map(q -> queue(q, c.pools().get(q))).toList();
            out.put(name, new ClusterInfo(c.region(), c.type().name(), queues));
        });
        return out;
    }

    private static Queue queue(String name, ClustersConfig.Pool p) {
        if (p == null) {
            return new Queue(name, List.of(), null, null, null, List.of(), null);
        }
        return new Queue(name, p.gpuTypes().orElse(List.of()), boxed(p.maxGpusPerReplica()),
                boxed(p.maxGpusPerJob()), boxed(p.gpus()), p.projects().orElse(List.of()),
                p.description().orElse(null));
    }

    private static Integer boxed(java.util.OptionalInt v) {
        return v.isPresent() ? v.getAsInt() : null;
    }

    public Cluster cluster(String name) {
        Cluster c = config.clusters().get(name);
        if (c == null) {
            throw new IllegalStateException("cluster '" + name + "' is not configured");
        }
        return c;
    }

    public boolean isKubernetes(String name) {
        Cluster c = config.clusters().get(name);
        return c != null && c.type() == ClustersConfig.Type.KUBERNETES;
    }

    /** The client of a {@code kubernetes} cluster: its own kubeconfig/context, or the service's default client. */
    public KubernetesClient client(String name) {
        Cluster c = cluster(name);
        if (c.kubeconfig().isEmpty()) {
            return defaultClient.get();
        }
        return own.computeIfAbsent(name, n -> {
            Path path = Path.of(c.kubeconfig().get());
            try {
                Config cfg = Config.fromKubeconfig(c.context().orElse(null), Files.readString(path), path.toString());
                return new KubernetesClientBuilder().withConfig(cfg).build();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read kubeconfig of cluster " + n, e);
            }
        });
    }

    @PreDestroy
    void close() {
        own.values().forEach(KubernetesClient::close);
    }
}
