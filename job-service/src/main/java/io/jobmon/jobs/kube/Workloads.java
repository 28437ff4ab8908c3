package io.jobmon.jobs.kube;

import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.jobmon.jobs.config.JobsConfig;
import io.jobmon.jobs.job.model.JobRecord;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Locale;
import org.jboss.logging.Logger;

/**
 * Creates and deletes workloads on {@code kubernetes} clusters (blocking fabric8 calls, run on worker threads).
 * On an {@code external} cluster both are no-ops: that cluster's runner learns about new and stopping jobs from
 * {@code jobmon.job.changes} and reports back through {@code jobmon.job.status}.
 */
@ApplicationScoped
public class Workloads {

    private static final Logger LOG = Logger.getLogger(Workloads.class);

    private final ClusterRegistry clusters;
    private final JobsConfig config;

    public Workloads(ClusterRegistry clusters, JobsConfig config) {
        this.clusters = clusters;
        this.config = config;
    }

    /** Creates the job's workload; fails with the API server's message when it refuses. */
    public Uni<Void> submit(JobRecord job) {
        if (!clusters.isKubernetes(job.cluster())) {
            return Uni.createFrom().voidItem();
        }
        return blocking(() -> {
            String priorityClass = config.priorityClassPrefix() + job.priority().name().toLowerCase(Locale.ROOT);
            var workload = WorkloadFactory.build(job, job.namespace(), priorityClass,
                    clusters.cluster(job.cluster()).gpuProducts());
            clusters.client(job.cluster()).batch().v1().jobs().inNamespace(job.namespace()).resource(workload).create();
            LOG.infof("created workload %s/%s on %s", job.namespace(), job.id(), job.cluster());
        });
    }

    /** Deletes the job's workload and, in the foreground, its pods; a workload already gone is fine. */
    public Uni<Void> stop(JobRecord job) {
        if (!clusters.isKubernetes(job.cluster())) {
            return Uni.createFrom().voidItem();
        }
        return blocking(() -> {
            clusters.client(job.cluster()).batch().v1().jobs().inNamespace(job.namespace()).withName(job.id())
                    .withPropagationPolicy(DeletionPropagation.FOREGROUND).delete();
            LOG.infof("deleted workload %s/%s on %s", job.namespace(), job.id(), job.cluster());
        });
    }

    private static Uni<Void> blocking(Runnable call) {
        return Uni.createFrom().item(() -> {
            call.run();
            return (Void) null;
        }).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }
}
