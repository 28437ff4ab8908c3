package io.jobmon.jobs.job.service;

import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.i18n.I18n;
import io.jobmon.contracts.i18n.Locales;
import io.jobmon.contracts.i18n.Text;
import io.jobmon.contracts.i18n.Texts;
import io.jobmon.jobs.job.model.JobRecord;
import io.jobmon.jobs.job.model.TransitionRecord;
import io.jobmon.jobs.job.repository.JobRepository;
import io.jobmon.jobs.job.repository.JobRepository.StatusUpdate;
import io.jobmon.jobs.job.repository.TransitionRepository;
import io.jobmon.jobs.kube.Workloads;
import io.jobmon.jobs.outbox.OutboxWriter;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import org.jboss.logging.Logger;

/**
 * Stopping a job (a user's stop, a TERMINATE command, the old attempt of a RESTART): a waiting job is released at
 * once (STOPPED), a running one goes STOPPING until its cluster reports the end or the grace period passes. The
 * record always stays.
 */
@ApplicationScoped
public class Stopper {

    private static final Logger LOG = Logger.getLogger(Stopper.class);

    private final JobRepository jobs;
    private final TransitionRepository transitions;
    private final OutboxWriter outbox;
    private final Workloads workloads;
    private final Texts english;

    public Stopper(JobRepository jobs, TransitionRepository transitions, OutboxWriter outbox, Workloads workloads,
            I18n i18n) {
        this.jobs = jobs;
        this.transitions = transitions;
        this.outbox = outbox;
        this.workloads = workloads;
        this.english = i18n.texts(Locales.EN);
    }

    /**
     * Records the stop in the caller's transaction (the job must be locked and stoppable); returns the new status.
     *
     * @param text the message, a catalogue key rendered in each reader's language
     */
    public Uni<JobStatus> record(SqlClient tx, JobRecord job, String reason, Text text, String source) {
        if (job.status() == JobStatus.STOPPING) {
            return Uni.createFrom().item(JobStatus.STOPPING);
        }
        JobStatus next = StatusMachine.stopTarget(job.status());
        Instant now = Instant.now();
        String message = english.text(text);
        StatusUpdate u = new StatusUpdate(job.id(), next, reason, message, job.exitCode(), job.failureReason(),
                job.firstEventAt(), job.startedAt(), next.isFinal() ? now : null, job.lastSequence(), text);
        return jobs.updateStatus(tx, u)
                .chain(x -> transitions.insert(tx, new TransitionRecord(job.id(), next, reason, message, text, null,
                        now, source, null)))
                .chain(x -> outbox.changed(tx, job.id()))
                .replaceWith(next);
    }

    /** After the commit: deletes the workload. A failure is logged; the sweeper still ends the STOPPING state. */
    public Uni<Void> deleteWorkload(JobRecord job) {
        return workloads.stop(job).onFailure().recoverWithItem(e -> {
            LOG.warnf("could not delete the workload of %s on %s: %s", job.id(), job.cluster(), e.getMessage());
            return null;
        });
    }

    /** Ends a STOPPING state that its cluster never confirmed (the sweeper). */
    public Uni<Void> finish(SqlClient tx, JobRecord job) {
        if (job == null || job.status() != JobStatus.STOPPING) {
            return Uni.createFrom().voidItem();
        }
        Instant now = Instant.now();
        Text text = Text.of("job.message.stop-grace");
        String message = english.text(text);
        return jobs.updateStatus(tx, new StatusUpdate(job.id(), JobStatus.STOPPED, job.reason(), message,
                        job.exitCode(), job.failureReason(), job.firstEventAt(), job.startedAt(), now, job.lastSequence(),
                        text))
                .chain(x -> transitions.insert(tx, new TransitionRecord(job.id(), JobStatus.STOPPED, job.reason(),
                        message, text, null, now, TransitionRecord.SYSTEM, null)))
                .chain(x -> outbox.changed(tx, job.id()));
    }
}
