package io.jobmon.events.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithParentName;
import java.util.Map;
import java.util.Optional;

/**
 * The clusters jobmon knows, by name: {@code jobmon.clusters.<name>.<key>}. A {@code kubernetes} cluster is
 * watched by this service; an {@code external} one is fed by someone else (a cluster agent, the local demo)
 * publishing to {@code jobmon.k8s.raw} in the same form.
 */
@ConfigMapping(prefix = "jobmon.clusters")
public interface ClustersConfig {

    @WithParentName
    Map<String, Cluster> clusters();

    interface Cluster {

        /** {@code kubernetes} (watched here) or {@code external} (not watched). */
        @WithDefault("external")
        Type type();

        /** The region stamped on every record of the cluster. */
        @WithDefault("default")
        String region();

        /** Path of a kubeconfig file for this cluster; absent: the service's own client (in-cluster or quarkus.kubernetes-client.*). */
        Optional<String> kubeconfig();

        /** Context of the kubeconfig to use; absent: its current context. */
        Optional<String> context();

        /** Namespace to watch; absent: all namespaces. */
        Optional<String> namespace();
    }

    enum Type {
        KUBERNETES, EXTERNAL
    }
}
