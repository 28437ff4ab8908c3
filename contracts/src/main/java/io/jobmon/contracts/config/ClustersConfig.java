package io.jobmon.contracts.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithParentName;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The clusters jobmon knows, by name — one definition for every service: {@code jobmon.clusters."gpu-a".type=kubernetes}.
 * A {@code kubernetes} cluster is reached through its API: job-service creates and deletes workloads there and
 * event-ingest watches it. An {@code external} cluster is run by another system, which publishes its pods and events
 * to {@code jobmon.k8s.raw} in the same form. A cluster that is not configured does not exist (a submission naming it
 * is a 400).
 */
@ConfigMapping(prefix = "jobmon.clusters")
public interface ClustersConfig {

    /** Every configured cluster by its name. */
    @WithParentName
    Map<String, Cluster> clusters();

    interface Cluster {

        /** {@code kubernetes} (jobmon submits and watches) or {@code external} (someone else does). */
        @WithDefault("external")
        Type type();

        /** The region shown in lists and stamped on the cluster's records; a submission's region must match it. */
        @WithDefault("default")
        String region();

        /** Path of this cluster's kubeconfig; absent: the service's own client (in-cluster account or ~/.kube/config). */
        Optional<String> kubeconfig();

        /** Context inside the kubeconfig; absent: its current context. */
        Optional<String> context();

        /** The namespace jobs are created in. */
        @WithDefault("jobmon-jobs")
        String namespace();

        /** The namespace event-ingest watches; absent: {@link #namespace()}; {@code *}: every namespace. */
        Optional<String> watchNamespace();

        /** The namespace to watch, or null for every namespace. */
        default String watchedNamespace() {
            String ns = watchNamespace().orElse(namespace());
            return "*".equals(ns) ? null : ns;
        }

        /** Resource pools (queues) of this cluster a job may name; absent: any. */
        Optional<List<String>> queues();
    }

    enum Type {
        KUBERNETES, EXTERNAL
    }
}
