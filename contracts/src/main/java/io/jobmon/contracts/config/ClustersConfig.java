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

        /**
         * Resource pools (queues) of this cluster, by name only (the older key; {@link #pools()} describes them).
         * A cluster that names none in either has one queue, {@code jobmon.jobs.default-queue}.
         */
        Optional<List<String>> queues();

        /**
         * The {@code nvidia.com/gpu.product} node label (GPU feature discovery's) of each GPU model a job may ask
         * for: {@code jobmon.clusters.a.gpu-products.A800=NVIDIA-A800-SXM4-80GB}. A job asking for a model listed
         * here is placed on such nodes only; a model not listed: on any node with free GPUs.
         */
        Map<String, String> gpuProducts();

        /** Resource pools (queues) of this cluster with what they offer: {@code jobmon.clusters.a.pools."gpu-prod".*}. */
        Map<String, Pool> pools();

        /** Every queue of the cluster: those of {@link #queues()} in their order, then those of {@link #pools()}. */
        default List<String> queueNames() {
            java.util.LinkedHashSet<String> names = new java.util.LinkedHashSet<>(queues().orElse(List.of()));
            names.addAll(new java.util.TreeSet<>(pools().keySet()));
            return List.copyOf(names);
        }
    }

    /** A resource pool (queue) of a cluster. Every key is optional: a pool named only in {@code queues} has none. */
    interface Pool {

        /** GPU models the pool has ({@code A800,H800}); a job must ask for one of them. Absent: any model. */
        Optional<List<String>> gpuTypes();

        /** Most GPUs one replica (pod) may ask for in this pool; absent: {@code jobmon.jobs.max-gpus-per-replica}. */
        java.util.OptionalInt maxGpusPerReplica();

        /** Most GPUs one job may hold in this pool (replicas × GPUs per replica); absent: no pool limit. */
        java.util.OptionalInt maxGpusPerJob();

        /** The pool's GPUs in total, as shown to users (not enforced: the scheduler and quotas do that). */
        java.util.OptionalInt gpus();

        /** Project groups that may submit to the pool; absent: every project. */
        Optional<List<String>> projects();

        /** One line telling users what the pool is for. */
        Optional<String> description();
    }

    enum Type {
        KUBERNETES, EXTERNAL
    }
}
