package io.jobmon.jobs.messaging;

import io.jobmon.contracts.events.DiagnosisFinished;
import io.jobmon.contracts.events.InvalidRecordException;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.jobs.job.repository.CommandRepository;
import io.jobmon.jobs.job.repository.JobRepository;
import io.jobmon.jobs.outbox.OutboxWriter;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Set;

/**
 * Takes a finished diagnosis's category as the failure reason of a job that failed (FAILED or ABNORMAL, or a
 * diagnosis triggered by the failure). A diagnosis that decides nothing ({@code UNKNOWN}, {@code HEALTHY}) does not
 * replace a reason the job already has. Each diagnosis id is applied once; a diagnosis of a job job-service does
 * not have is invalid (DLQ).
 */
@ApplicationScoped
public class DiagnosisHandler {

    static final Set<String> UNDECIDED = Set.of("UNKNOWN", "HEALTHY");

    private final Pool pool;
    private final JobRepository jobs;
    private final CommandRepository applied;
    private final OutboxWriter outbox;

    public DiagnosisHandler(Pool pool, JobRepository jobs, CommandRepository applied, OutboxWriter outbox) {
        this.pool = pool;
        this.jobs = jobs;
        this.applied = applied;
        this.outbox = outbox;
    }

    public Uni<Void> apply(DiagnosisFinished d) {
        return pool.withTransaction(tx -> applied.claimDiagnosis(tx, new CommandRepository.KnownDiagnosis(
                d.diagnosisId(), d.jobId(), d.category(), d.action(), d.trigger())).chain(first -> {
            if (!first) {
                return Uni.createFrom().voidItem();
            }
            return jobs.lock(tx, d.jobId()).chain(found -> {
                if (found.isEmpty()) {
                    return Uni.createFrom().failure(new InvalidRecordException("no job " + d.jobId()
                            + " in job-service"));
                }
                var job = found.get();
                boolean failed = (job.status() == JobStatus.FAILED || job.status() == JobStatus.ABNORMAL
                        || "JOB_FAILED".equals(d.trigger()));
                boolean decides = !UNDECIDED.contains(d.category()) || job.failureReason() == null;
                if (!failed || !decides) {
                    return Uni.createFrom().voidItem();
                }
                return jobs.setFailureReason(tx, job.id(), d.category(), d.diagnosisId())
                        .chain(x -> outbox.changed(tx, job.id()));
            });
        }));
    }
}
