package io.jobmon.jobs.kube;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.jobmon.contracts.config.ClustersConfig;
import io.jobmon.contracts.config.ClustersConfig.Cluster;
import io.jobmon.jobs.job.service.SpecRules.ClusterInfo;
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
    private final Map<String, KubernetesClient> own = new ConcurrentHashMap<>();

    public ClusterRegistry(ClustersConfig config, Instance<KubernetesClient> defaultClient) {
        this.config = config;
        this.defaultClient = defaultClient;
    }

    /** Cluster name → region and queues, for spec validation. */
    public Map<String, ClusterInfo> infos() {
        Map<String, ClusterInfo> out = new TreeMap<>();
        config.clusters().forEach((name, c) -> out.put(name,
                new ClusterInfo(c.region(), c.queues().orElse(java.util.List.of()))));
        return out;
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
