package io.jobmon.jobs.job.service;

import io.jobmon.contracts.i18n.Text;
import io.jobmon.contracts.problem.ApiException;
import io.jobmon.contracts.problem.Problem.FieldError;
import io.jobmon.jobs.job.model.JobSpec;
import java.util.List;

/**
 * Whether the GPUs a job asks for can ever be free in its queue (ADR 0019). The queue's capacity is its configured
 * {@code gpus} (the pool's GPUs in total, shown by {@code GET /api/v1/clusters}): a job asking for more than that
 * would queue forever, so it is a 422 at submission. A queue whose capacity is not configured cannot be checked:
 * the job is accepted with a warning saying so. A job without GPUs is not checked.
 */
public final class Capacity {

    private Capacity() {
    }

    /**
     * @return the warnings of an accepted job (empty, or one saying capacity is unknown)
     * @throws ApiException 422 when the job asks for more GPUs than its queue has
     */
    public static List<Text> check(JobSpec spec, SpecRules rules) {
        int gpus = spec.gpusPerReplicaOrZero() * spec.replicasOrOne();
        SpecRules.ClusterInfo cluster = spec.cluster() == null ? null : rules.clusters().get(spec.cluster());
        SpecRules.Queue queue = cluster == null || spec.queue() == null ? null
                : cluster.queue(spec.queue()).orElse(null);
        if (gpus == 0 || queue == null) {
            return List.of();
        }
        if (queue.gpus() == null) {
            return List.of(Text.of("capacity.unknown", queue.name(), spec.cluster(), gpus));
        }
        if (gpus > queue.gpus()) {
            String model = spec.resources() == null ? null : spec.resources().gpuType();
            throw ApiException.unprocessable(Text.of("capacity.exceeded", gpus, model, queue.name(), spec.cluster(),
                    queue.gpus()), List.of(FieldError.of("replicas", "capacity.exceeded.field", queue.gpus(),
                            queue.name()), FieldError.of("resources.gpusPerReplica", "capacity.exceeded.field",
                                    queue.gpus(), queue.name())));
        }
        return List.of();
    }
}
