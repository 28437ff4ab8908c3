package io.jobmon.jobs.job.service;

import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.i18n.I18n;
import io.jobmon.contracts.i18n.Locales;
import io.jobmon.contracts.i18n.Text;
import io.jobmon.contracts.i18n.Texts;
import io.jobmon.jobs.job.model.JobRecord;
import io.jobmon.jobs.job.model.JobSpec;
import io.jobmon.jobs.job.model.TransitionRecord;
import io.jobmon.jobs.job.repository.JobRepository;
import io.jobmon.jobs.job.repository.TransitionRepository;
import io.jobmon.jobs.kube.ClusterRegistry;
import io.jobmon.jobs.kube.Workloads;
import io.jobmon.jobs.outbox.OutboxWriter;
import io.jobmon.jobs.support.JobIds;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import org.jboss.logging.Logger;

/**
 * Creates jobs: the record (PENDING), its first timeline entry and its snapshot in one transaction, then the
 * workload on its cluster. The record is committed before the workload exists, so no status event can arrive for
 * a job job-service does not know yet; if the cluster refuses the workload the job becomes ABNORMAL with the
 * cluster's message.
 */
@ApplicationScoped
public class JobCreator {

    private static final Logger LOG = Logger.getLogger(JobCreator.class);

    private final Pool pool;
    private final JobRepository jobs;
    private final TransitionRepository transitions;
    private final OutboxWriter outbox;
    private final ClusterRegistry clusters;
    private final Workloads workloads;
    private final Texts english;

    public JobCreator(Pool pool, JobRepository jobs, TransitionRepository transitions, OutboxWriter outbox,
            ClusterRegistry clusters, Workloads workloads, I18n i18n) {
        this.pool = pool;
        this.jobs = jobs;
        this.transitions = transitions;
        this.outbox = outbox;
        this.clusters = clusters;
        this.workloads = workloads;
        this.english = i18n.texts(Locales.EN);
    }

    /** Builds the record of a new job (not yet stored). */
    public JobRecord record(NewJob n) {
        String id = JobIds.next();
        JobSpec s = n.spec();
        String namespace = clusters.infos().containsKey(s.cluster()) ? clusters.cluster(s.cluster()).namespace() : null;
        Text message = submittedMessage(n);
        return new JobRecord(id, n.tenant(), n.owner(), s.project(), s.name(), s.cluster(), s.region(), namespace,
                s.queue(), s.priority(), JobStatus.PENDING, "Submitted", english.text(message), message, null, null,
                null,
                s.resources().gpuType(), s.gpusPerReplicaOrZero(), s.replicasOrOne(), s.visibility(), s.tags(),
                n.shares(), s, s.supportsRestart(), s.autoFaultHandling(), s.maxRetries(),
                n.rootId() == null ? id : n.rootId(), n.attempt(), n.cause(), n.diagnosisId(), n.previousId(),
                n.clonedFrom(), n.retryCount(), n.idempotencyKey(), Instant.now(), null, null, null, 0, 1, Instant.now());
    }

    /** Stores a record made by {@link #record} in the caller's transaction. */
    public Uni<Void> insert(SqlClient tx, JobRecord job, String source) {
        return jobs.insert(tx, job)
                .chain(x -> transitions.insert(tx, new TransitionRecord(job.id(), JobStatus.PENDING, "Submitted",
                        job.message(), job.messageText(), null, job.submittedAt(), source, null)))
                .chain(x -> outbox.changed(tx, job.id()));
    }

    /** Creates the job in its own transaction, then its workload; returns the stored job. */
    public Uni<JobRecord> create(NewJob n, String source) {
        JobRecord job = record(n);
        return pool.withTransaction(tx -> insert(tx, job, source)).chain(x -> launch(job));
    }

    /** Creates the workload of a committed job; on refusal records the job as ABNORMAL. Returns the job as stored. */
    public Uni<JobRecord> launch(JobRecord job) {
        return workloads.submit(job)
                .onItemOrFailure().transformToUni((ok, failure) -> {
                    if (failure == null) {
                        return jobs.get(pool, job.id());
                    }
                    LOG.warnf("workload of %s refused by %s: %s", job.id(), job.cluster(), failure.getMessage());
                    return markSubmitFailed(job, failure).chain(x -> jobs.get(pool, job.id()));
                });
    }

    private Uni<Void> markSubmitFailed(JobRecord job, Throwable failure) {
        Instant now = Instant.now();
        // The cluster's answer stays in its own words; jobmon's sentence around it follows the reader's language.
        Text text = Text.of("job.message.submit-failed", String.valueOf(failure.getMessage()));
        String message = english.text(text);
        return pool.withTransaction(tx -> jobs.lock(tx, job.id()).map(java.util.Optional::orElseThrow)
                .chain(j -> jobs.updateStatus(tx,
                new JobRepository.StatusUpdate(j.id(), JobStatus.ABNORMAL, "SubmitFailed", message, null,
                        "SubmitFailed", j.firstEventAt(), j.startedAt(), null, j.lastSequence(), text))
                .chain(x -> transitions.insert(tx, new TransitionRecord(j.id(), JobStatus.ABNORMAL, "SubmitFailed",
                        message, text, null, now, TransitionRecord.SYSTEM, null)))
                .chain(x -> outbox.changed(tx, j.id()))));
    }

    /** What the first timeline entry says: how the job came to be. */
    static Text submittedMessage(NewJob n) {
        return switch (n.cause()) {
            case INITIAL -> n.clonedFrom() == null ? Text.of("job.message.submitted")
                    : Text.of("job.message.cloned", n.clonedFrom());
            case USER -> Text.of("job.message.resubmitted", n.previousId());
            case USER_DEBUG -> Text.of("job.message.resubmitted-debug", n.previousId());
            case PLATFORM -> Text.of("job.message.restarted", n.previousId());
            case DIAGNOSIS -> Text.of("job.message.restarted-diagnosis", n.previousId(), n.diagnosisId());
        };
    }
}
