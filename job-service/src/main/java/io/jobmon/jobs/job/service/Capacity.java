package io.jobmon.jobs.job.service;

import io.jobmon.contracts.i18n.Text;
import io.jobmon.contracts.problem.ApiException;
import io.jobmon.contracts.problem.Problem.FieldError;
import io.jobmon.jobs.job.model.JobSpec;
import io.jobmon.jobs.kube.NodeCapacity;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Whether the GPUs a job asks for can ever be free (ADR 0019): within its queue's configured {@code gpus} (the
 * pool's GPUs in total, shown by {@code GET /api/v1/clusters}), and, on a {@code kubernetes} cluster, within the GPUs
 * of that model its nodes have ({@link NodeCapacity}). A job asking for more would queue forever, so it is a 422 at
 * submission; a replica larger than the largest such node is accepted with a warning. Where neither is known the job is accepted with a warning
 * saying so. A job without GPUs is not checked.
 */
public final class Capacity {

    private Capacity() {
    }

    /**
     * @param nodes the GPUs of the cluster's nodes, when it is a {@code kubernetes} cluster whose nodes could be read
     * @param products the cluster's {@code nvidia.com/gpu.product} value per GPU model, where configured
     * @return the warnings of an accepted job (empty, or one saying capacity is unknown)
     * @throws ApiException 422 when the job asks for more GPUs than its queue or its cluster's nodes have
     */
    public static List<Text> check(JobSpec spec, SpecRules rules, Optional<NodeCapacity.Snapshot> nodes,
            Map<String, String> products) {
        int gpus = spec.gpusPerReplicaOrZero() * spec.replicasOrOne();
        if (gpus == 0) {
            return List.of();
        }
        String model = spec.resources() == null ? null : spec.resources().gpuType();
        SpecRules.ClusterInfo cluster = spec.cluster() == null ? null : rules.clusters().get(spec.cluster());
        SpecRules.Queue queue = cluster == null || spec.queue() == null ? null
                : cluster.queue(spec.queue()).orElse(null);
        if (queue != null && queue.gpus() != null && gpus > queue.gpus()) {
            throw ApiException.unprocessable(Text.of("capacity.exceeded", gpus, model, queue.name(), spec.cluster(),
                    queue.gpus()), List.of(FieldError.of("replicas", "capacity.exceeded.field", queue.gpus(),
                            queue.name()), FieldError.of("resources.gpusPerReplica", "capacity.exceeded.field",
                                    queue.gpus(), queue.name())));
        }
        if (nodes.isPresent()) {
            List<String> named = nodes.get().products(model, products);
            int have = nodes.get().total(named);
            if (gpus > have) {
                throw ApiException.unprocessable(Text.of("capacity.cluster-exceeded", gpus, model == null ? "" : model,
                        spec.cluster(), have), List.of(FieldError.of("replicas", "capacity.cluster-exceeded.field",
                                have, spec.cluster()), FieldError.of("resources.gpusPerReplica",
                                        "capacity.cluster-exceeded.field", have, spec.cluster())));
            }
            int largest = nodes.get().largestNode(named);
            if (spec.gpusPerReplicaOrZero() > largest) {
                // Said, not refused: nodes are added and relabelled, and a replayed job (the sim) plays its bundle
                return List.of(Text.of("capacity.node-exceeded", spec.gpusPerReplicaOrZero(),
                        model == null ? "" : model, spec.cluster(), largest));
            }
            return List.of();
        }
        if (queue != null && queue.gpus() == null) {
            return List.of(Text.of("capacity.unknown", queue.name(), spec.cluster(), gpus));
        }
        return List.of();
    }
}
