package io.jobmon.jobs.messaging;

import io.jobmon.contracts.events.InvalidRecordException;
import io.jobmon.contracts.events.JobCommand;
import io.jobmon.contracts.i18n.I18n;
import io.jobmon.contracts.i18n.Locales;
import io.jobmon.contracts.i18n.Text;
import io.jobmon.contracts.i18n.Texts;
import io.jobmon.jobs.job.model.AttemptCause;
import io.jobmon.jobs.job.model.JobRecord;
import io.jobmon.jobs.job.model.TransitionRecord;
import io.jobmon.jobs.config.JobsConfig;
import io.jobmon.jobs.job.repository.CommandRepository;
import io.jobmon.jobs.job.repository.CommandRepository.KnownDiagnosis;
import io.jobmon.jobs.job.repository.JobRepository;
import io.jobmon.jobs.job.service.JobCreator;
import io.jobmon.jobs.job.service.NewJob;
import io.jobmon.jobs.job.service.Stopper;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Executes automatic fault handling's commands, each command id at most once (its row is claimed in the same
 * transaction as what it does), and only a command {@link CommandCheck} takes: from a trusted producer, justified by
 * diagnoses of that job, for a job that opted in; any other is invalid (dead-lettered with the reason). RESTART
 * creates the next attempt when the job supports restart and has retries left, stopping the current attempt if it
 * still runs; otherwise the command is recorded as REFUSED with why. TERMINATE stops the job. Either way the job's
 * reason and timeline say that automatic fault handling did it, which diagnoses and what they found. Workloads are
 * touched only after the commit.
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

    /** A command whose diagnoses have not arrived yet: retried under the consumer rule, not dead-lettered. */
    static final class NotYet extends RuntimeException {
        NotYet(String message) {
            super(message, null, false, false);
        }
    }

    private final Set<String> trustedSources;
    private final Duration diagnosisWait;
    /**
     * When this instance first checked a command whose diagnoses had not arrived: the wait runs from there, not from
     * the record's time, so a command read after a long outage still gets the whole wait for its diagnoses, which
     * were held up by the same outage. An entry lives at most the wait.
     */
    private final Map<String, Instant> waitingSince = new ConcurrentHashMap<>();

    public CommandHandler(Pool pool, JobRepository jobs, CommandRepository commands, Stopper stopper,
            JobCreator creator, I18n i18n, JobsConfig config) {
        this.trustedSources = Set.copyOf(config.commands().trustedSources());
        this.diagnosisWait = config.commands().diagnosisWait();
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

    /** @param source the record's CloudEvent source */
    public Uni<Void> apply(JobCommand c, String source) {
        List<String> diagnoses = c.diagnosisIds() == null ? List.of() : c.diagnosisIds();
        return pool.withTransaction(tx -> jobs.lock(tx, c.jobId()).chain(found -> commands.diagnoses(tx, diagnoses)
                .chain(known -> {
                    Instant now = Instant.now();
                    CommandCheck.Verdict v = CommandCheck.check(c, source, trustedSources, found.orElse(null), known,
                            waitingSince.computeIfAbsent(c.commandId(), k -> now), now, diagnosisWait);
                    if (v.outcome() != CommandCheck.Outcome.WAIT) {
                        waitingSince.remove(c.commandId());
                    }
                    if (v.outcome() == CommandCheck.Outcome.INVALID) {
                        return Uni.createFrom().failure(new InvalidRecordException("command " + c.commandId() + ": "
                                + v.reason()));
                    }
                    if (v.outcome() == CommandCheck.Outcome.WAIT) {
                        return Uni.createFrom().failure(new NotYet("command " + c.commandId() + ": " + v.reason()));
                    }
                    JobRecord job = found.get();
                    Justification why = Justification.of(v.diagnoses());
                    return commands.claim(tx, c.commandId(), c.jobId(), c.command().name(), diagnoses, c.reason())
                            .chain(first -> !first ? Uni.createFrom().item(Followup.NONE)
                                    : c.command() == JobCommand.Kind.TERMINATE ? terminate(tx, c, job, why)
                                            : restart(tx, c, job, diagnoses, why));
                })))
                .chain(f -> (f.toStop() == null ? Uni.createFrom().voidItem() : stopper.deleteWorkload(f.toStop()))
                        .chain(x -> f.toLaunch() == null ? Uni.createFrom().voidItem()
                                : creator.launch(f.toLaunch()).replaceWithVoid()));
    }

    /** The diagnoses that justified a command, as the job's message names them. */
    private record Justification(String ids, Text category) {
        static Justification of(List<KnownDiagnosis> named) {
            return new Justification(String.join(", ", named.stream().map(KnownDiagnosis::diagnosisId).toList()),
                    Text.of("category." + named.get(named.size() - 1).category()));
        }
    }

    private Uni<Followup> terminate(SqlClient tx, JobCommand c, JobRecord job, Justification why) {
        if (job.status().isFinal()) {
            return refuse(tx, c, Text.of("command.outcome.ended", Text.of("status." + job.status())));
        }
        Text message = Text.of("job.message.terminated-by-guard", why.ids(), why.category());
        return stopper.record(tx, job, "TerminatedByFaultHandling", message, TransitionRecord.SYSTEM)
                .chain(status -> outcome(tx, c, EXECUTED, Text.of("command.outcome.job-is", Text.of("status." + status)),
                        null))
                .replaceWith(new Followup(job, null));
    }

    private Uni<Followup> restart(SqlClient tx, JobCommand c, JobRecord job, List<String> diagnoses,
            Justification why) {
        if (!job.supportsRestart()) {
            return refuse(tx, c, Text.of("command.outcome.no-restart"));
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
            Text restarting = Text.of("job.message.restarted-by-guard", next.attempt(), why.ids(), why.category());
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
