package io.jobmon.jobs.metrics;

import io.jobmon.contracts.events.JobStatus;
import io.jobmon.jobs.job.model.JobRecord;
import io.jobmon.jobs.job.repository.JobRepository.StatusUpdate;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;

/**
 * Event-driven metrics for the platform's alert rules (the jobs-by-status gauges are in {@link JobGauges}):
 * <ul>
 * <li>{@code jobmon_job_pending_seconds} (histogram; cluster, queue): submission to start, recorded when a job
 * starts;</li>
 * <li>{@code jobmon_job_scheduling_latency_seconds} (histogram; cluster): submission to the first status its
 * cluster reports, i.e. how long until the cluster picked the job up at all;</li>
 * <li>{@code jobmon_job_failures_total} (counter; cluster, queue, reason): jobs entering FAILED or ABNORMAL;</li>
 * <li>{@code jobmon_job_status_events_total} (counter; outcome = applied, ignored, unknown_job).</li>
 * </ul>
 */
@ApplicationScoped
public class JobMetrics {

    private static final double[] BUCKETS = {1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 7200, 21600, 86400};

    private final MeterRegistry registry;

    public JobMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** Records what a cluster transition changed. */
    public void transitionApplied(JobRecord before, StatusUpdate after) {
        if (before.firstEventAt() == null && after.firstEventAt() != null) {
            summary("jobmon.job.scheduling.latency", "submission to the first status reported by the cluster")
                    .tags("cluster", before.cluster()).register(registry)
                    .record(seconds(before, after.firstEventAt()));
        }
        if (before.startedAt() == null && after.startedAt() != null) {
            summary("jobmon.job.pending", "queue time: submission to start")
                    .tags("cluster", before.cluster(), "queue", before.queue()).register(registry)
                    .record(seconds(before, after.startedAt()));
        }
        boolean failing = after.status() == JobStatus.FAILED || after.status() == JobStatus.ABNORMAL;
        boolean wasFailing = before.status() == JobStatus.FAILED || before.status() == JobStatus.ABNORMAL;
        if (failing && !wasFailing) {
            Counter.builder("jobmon.job.failures").description("jobs entering FAILED or ABNORMAL, by reason")
                    .tags("cluster", before.cluster(), "queue", before.queue(), "reason",
                            after.failureReason() == null ? "unknown" : after.failureReason())
                    .register(registry).increment();
        }
    }

    public void statusEvent(String outcome) {
        Counter.builder("jobmon.job.status.events").description("jobmon.job.status records by what they did")
                .tag("outcome", outcome).register(registry).increment();
    }

    private static DistributionSummary.Builder summary(String name, String description) {
        return DistributionSummary.builder(name).baseUnit("seconds").description(description)
                .serviceLevelObjectives(BUCKETS);
    }

    private static double seconds(JobRecord job, java.time.Instant until) {
        return Math.max(0, Duration.between(job.submittedAt(), until).toMillis() / 1000.0);
    }
}
