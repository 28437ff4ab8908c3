package io.jobmon.jobs.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithParentName;
import java.util.Map;
import java.util.Optional;

/**
 * The clusters jobs can be submitted to, by name: {@code jobmon.clusters."gpu-a".type=kubernetes}.
 * A cluster that is not configured here does not exist for job-service (a submission naming it is a 400).
 */
@ConfigMapping(prefix = "jobmon.clusters")
public interface ClustersConfig {

    /** Every configured cluster by its name. */
    @WithParentName
    Map<String, Cluster> clusters();

    interface Cluster {

        /** {@code kubernetes}: job-service creates and deletes the workload; {@code external}: another system runs it. */
        @WithDefault("external")
        Type type();

        /** Region shown in lists and used by the region filter; a submission's region must match it. */
        @WithDefault("default")
        String region();

        /** Path of the kubeconfig file; absent: the service's own client (in-cluster account or ~/.kube/config). */
        Optional<String> kubeconfig();

        /** Context inside the kubeconfig; absent: its current context. */
        Optional<String> context();

        /** Namespace the workloads are created in. */
        @WithDefault("jobmon-jobs")
        String namespace();

        /** Resource pools (queues) of this cluster a job may name; empty: any. */
        Optional<java.util.List<String>> queues();
    }

    enum Type {
        kubernetes, external
    }
}
