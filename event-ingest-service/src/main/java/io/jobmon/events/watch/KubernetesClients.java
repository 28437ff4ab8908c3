package io.jobmon.events.watch;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.jobmon.contracts.config.ClustersConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The API client of a cluster: from its kubeconfig (and context) when configured, else the service's own client
 * ({@code quarkus.kubernetes-client.*}, in-cluster service account, or ~/.kube/config).
 */
@ApplicationScoped
public class KubernetesClients {

    private final Instance<KubernetesClient> defaultClient;

    public KubernetesClients(Instance<KubernetesClient> defaultClient) {
        this.defaultClient = defaultClient;
    }

    /** @return the client and whether the caller owns it (and must close it) */
    public Owned forCluster(ClustersConfig.Cluster cluster) {
        if (cluster.kubeconfig().isEmpty()) {
            return new Owned(defaultClient.get(), false);
        }
        Path path = Path.of(cluster.kubeconfig().get());
        try {
            Config config = Config.fromKubeconfig(cluster.context().orElse(null), Files.readString(path), path.toString());
            return new Owned(new KubernetesClientBuilder().withConfig(config).build(), true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read kubeconfig " + path, e);
        }
    }

    /** A client, and whether it was made for one cluster (closed with its watcher). */
    public record Owned(KubernetesClient client, boolean owned) {
    }
}
