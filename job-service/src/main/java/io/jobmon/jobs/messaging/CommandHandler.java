package io.jobmon.jobs.messaging;

import io.jobmon.contracts.events.JobCommand;
import io.jobmon.contracts.i18n.I18n;
import io.jobmon.contracts.i18n.Locales;
import io.jobmon.contracts.i18n.Text;
import io.jobmon.contracts.i18n.Texts;
import io.jobmon.jobs.job.model.AttemptCause;
import io.jobmon.jobs.job.model.JobRecord;
import io.jobmon.jobs.job.model.TransitionRecord;
import io.jobmon.jobs.job.repository.CommandRepository;
import io.jobmon.jobs.job.repository.JobRepository;
import io.jobmon.jobs.job.service.JobCreator;
import io.jobmon.jobs.job.service.NewJob;
import io.jobmon.jobs.job.service.Stopper;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/**
 * Executes automatic fault handling's commands, each command id at most once (its row is claimed in the same
 * transaction as what it does). RESTART creates the next attempt when the job supports restart, has fault handling
 * on and retries left, stopping the current attempt if it still runs; otherwise the command is recorded as REFUSED
 * with why. TERMINATE stops the job with the command's reason. Workloads are touched only after the commit.
 */
@ApplicationScoped
public class CommandHandler {

    static final String EXECUTED = "EXECUTED";
    static final String REFUSED = "REFUSED";

    private final Pool pool;
    private final JobRepository jobs;
    private final CommandRepository commands;
    private final Stopper stopper;
    private final JobCreator creator;
    private final Texts english;

    public CommandHandler(Pool pool, JobRepository jobs, CommandRepository commands, Stopper stopper,
            JobCreator creator, I18n i18n) {
        this.pool = pool;
        this.jobs = jobs;
        this.commands = commands;
        this.stopper = stopper;
        this.creator = creator;
        this.english = i18n.texts(Locales.EN);
    }

    /** What to do to workloads once the transaction committed. */
    private record Followup(JobRecord toStop, JobRecord toLaunch) {
        static final Followup NONE = new Followup(null, null);
    }

    public Uni<Void> apply(JobCommand c) {
        List<String> diagnoses = c.diagnosisIds() == null ? List.of() : c.diagnosisIds();
        return pool.withTransaction(tx -> commands.claim(tx, c.commandId(), c.jobId(), c.command().name(), diagnoses,
                c.reason()).chain(first -> !first ? Uni.createFrom().item(Followup.NONE)
                        : jobs.lock(tx, c.jobId()).chain(found -> {
                            if (found.isEmpty()) {
                                return refuse(tx, c, Text.of("command.outcome.no-job"));
                            }
                            JobRecord job = found.get();
                            return c.command() == JobCommand.Kind.TERMINATE ? terminate(tx, c, job)
                                    : restart(tx, c, job, diagnoses);
                        })))
                .chain(f -> (f.toStop() == null ? Uni.createFrom().voidItem() : stopper.deleteWorkload(f.toStop()))
                        .chain(x -> f.toLaunch() == null ? Uni.createFrom().voidItem()
                                : creator.launch(f.toLaunch()).replaceWithVoid()));
    }

    private Uni<Followup> terminate(SqlClient tx, JobCommand c, JobRecord job) {
        if (job.status().isFinal()) {
            return refuse(tx, c, Text.of("command.outcome.ended", Text.of("status." + job.status())));
        }
        Text message = c.reason() == null ? Text.of("job.message.terminated-no-reason")
                : Text.of("job.message.terminated", c.reason());
        return stopper.record(tx, job, "TerminatedByFaultHandling", message, TransitionRecord.SYSTEM)
                .chain(status -> outcome(tx, c, EXECUTED, Text.of("command.outcome.job-is", Text.of("status." + status)),
                        null))
                .replaceWith(new Followup(job, null));
    }

    private Uni<Followup> restart(SqlClient tx, JobCommand c, JobRecord job, List<String> diagnoses) {
        if (!job.supportsRestart()) {
            return refuse(tx, c, Text.of("command.outcome.no-restart"));
        }
        if (!job.autoFaultHandling()) {
            return refuse(tx, c, Text.of("command.outcome.fault-handling-off"));
        }
        if (job.retryCount() >= job.maxRetries()) {
            return refuse(tx, c, Text.of("command.outcome.retry-limit", job.retryCount(), job.maxRetries()));
        }
        return jobs.lastAttempt(tx, job.rootId()).chain(last -> {
            if (last > job.attempt()) {
                return refuse(tx, c, Text.of("command.outcome.attempt-exists", last));
            }
            String diagnosisId = diagnoses.isEmpty() ? null : diagnoses.get(diagnoses.size() - 1);
            JobRecord next = creator.record(new NewJob(job.spec(), job.tenant(), job.owner(),
                    diagnoses.isEmpty() ? AttemptCause.PLATFORM : AttemptCause.DIAGNOSIS, job.rootId(), last + 1,
                    job.id(), null, diagnosisId, job.retryCount() + 1, null, job.shares()));
            boolean active = !job.status().isFinal();
            Text restarting = c.reason() == null ? Text.of("job.message.restarting", next.attempt())
                    : Text.of("job.message.restarting-because", next.attempt(), c.reason());
            Uni<Void> stopOld = active ? stopper.record(tx, job, "Restarting", restarting, TransitionRecord.SYSTEM)
                    .replaceWithVoid() : Uni.createFrom().voidItem();
            return stopOld.chain(x -> creator.insert(tx, next, TransitionRecord.SYSTEM))
                    .chain(x -> outcome(tx, c, EXECUTED, Text.of("command.outcome.attempt-created", next.attempt()),
                            next.id()))
                    .replaceWith(new Followup(active ? job : null, next));
        });
    }

    private Uni<Followup> refuse(SqlClient tx, JobCommand c, Text why) {
        return outcome(tx, c, REFUSED, why, null).replaceWith(Followup.NONE);
    }

    private Uni<Void> outcome(SqlClient tx, JobCommand c, String outcome, Text detail, String newJobId) {
        return commands.outcome(tx, c.commandId(), outcome, english.text(detail), detail, newJobId);
    }
}
