package io.jobmon.jobs.messaging;

import io.jobmon.contracts.events.InvalidRecordException;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.events.JobStatusChanged;
import io.jobmon.jobs.job.model.JobRecord;
import io.jobmon.jobs.job.model.TransitionRecord;
import io.jobmon.jobs.job.repository.JobRepository;
import io.jobmon.jobs.job.repository.JobRepository.StatusUpdate;
import io.jobmon.jobs.job.repository.PodRepository;
import io.jobmon.jobs.job.repository.TransitionRepository;
import io.jobmon.jobs.job.service.StatusMachine;
import io.jobmon.jobs.metrics.JobMetrics;
import io.jobmon.jobs.outbox.OutboxWriter;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Applies a cluster transition to its job in one transaction (status, timeline, pods, snapshot), under the job's
 * row lock, by {@link StatusMachine}'s rule. A transition for a job job-service does not know is invalid (to the
 * DLQ with the reason, counted {@code outcome=unknown_job}): the event carries no owner or tenant, so no one could
 * be allowed to see it, and every job jobmon submits exists before its workload does.
 */
@ApplicationScoped
public class StatusHandler {

    private final Pool pool;
    private final JobRepository jobs;
    private final TransitionRepository transitions;
    private final PodRepository pods;
    private final OutboxWriter outbox;
    private final JobMetrics metrics;

    public StatusHandler(Pool pool, JobRepository jobs, TransitionRepository transitions, PodRepository pods,
            OutboxWriter outbox, JobMetrics metrics) {
        this.pool = pool;
        this.jobs = jobs;
        this.transitions = transitions;
        this.pods = pods;
        this.outbox = outbox;
        this.metrics = metrics;
    }

    private record Applied(JobRecord before, StatusUpdate after) {
    }

    public Uni<Void> apply(JobStatusChanged e) {
        return e.podsOnly() ? applyPods(e) : applyTransition(e);
    }

    private Uni<Void> applyTransition(JobStatusChanged e) {
        return pool.withTransaction(tx -> jobs.lock(tx, e.jobId()).chain(found -> {
            JobRecord job = found.orElse(null);
            if (job == null) {
                return unknownJob(e);
            }
            StatusMachine.Decision d = StatusMachine.onEvent(job, e);
            if (d.effect() == StatusMachine.Effect.IGNORE) {
                metrics.statusEvent("ignored");
                return Uni.createFrom().<Applied>nullItem();
            }
            StatusUpdate u = d.update();
            Uni<Void> timeline = d.effect() == StatusMachine.Effect.CHANGE
                    ? transitions.insert(tx, new TransitionRecord(job.id(), u.status(), u.reason(), u.message(),
                            u.messageText(), e.exitCode(), e.time(), TransitionRecord.CLUSTER, e.sequence()))
                    : Uni.createFrom().voidItem();
            return jobs.updateStatus(tx, u).chain(x -> timeline)
                    .chain(x -> pods.upsert(tx, job.id(), e.pods(), e.time()))
                    .chain(x -> u.status() == JobStatus.ABNORMAL ? jobs.podsChanged(tx, job.id(), e.time())
                            : Uni.createFrom().voidItem())
                    .chain(x -> outbox.changed(tx, job.id()))
                    .replaceWith(new Applied(job, u));
        })).invoke(applied -> {
            if (applied != null) {
                metrics.statusEvent("applied");
                metrics.transitionApplied(applied.before(), applied.after());
            }
        }).replaceWithVoid();
    }

    /**
     * A pods-only record: what changed in the job's pods since its last transition. Its pods are written (and the
     * job's version, {@code updated_at} and, for an ABNORMAL job, {@code finished_at} follow them); its status is
     * never touched. A record older than the job's last applied transition is stale and changes nothing.
     */
    private Uni<Void> applyPods(JobStatusChanged e) {
        return pool.withTransaction(tx -> jobs.lock(tx, e.jobId()).chain(found -> {
            JobRecord job = found.orElse(null);
            if (job == null) {
                return unknownJob(e).replaceWith(Boolean.FALSE);
            }
            if (e.sequence() < job.lastSequence()) {
                return Uni.createFrom().item(Boolean.FALSE);
            }
            return pods.upsert(tx, job.id(), e.pods(), e.time())
                    .chain(x -> jobs.podsChanged(tx, job.id(), e.time()))
                    .chain(x -> outbox.changed(tx, job.id()))
                    .replaceWith(Boolean.TRUE);
        })).invoke(applied -> metrics.statusEvent(applied ? "pods" : "ignored")).replaceWithVoid();
    }

    private Uni<Applied> unknownJob(JobStatusChanged e) {
        metrics.statusEvent("unknown_job");
        return Uni.createFrom().failure(new InvalidRecordException("no job " + e.jobId()
                + " in job-service (jobs are created before their workloads)"));
    }
}
