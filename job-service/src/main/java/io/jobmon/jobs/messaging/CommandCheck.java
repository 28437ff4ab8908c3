package io.jobmon.jobs.messaging;

import io.jobmon.contracts.events.JobCommand;
import io.jobmon.jobs.job.model.JobRecord;
import io.jobmon.jobs.job.repository.CommandRepository.KnownDiagnosis;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Whether job-service may act on a command of {@code jobmon.job.commands}: only what automatic fault handling
 * asked, and only with the justification it gives checked here (issue #26). A command is taken when
 * <ul>
 * <li>its CloudEvent source is a trusted producer (diagnosis-service);</li>
 * <li>it names diagnoses, each one received on {@code jobmon.diagnoses} for this very job;</li>
 * <li>they justify it: a TERMINATE needs two diagnoses that both proposed TERMINATE; a RESTART two that both
 * proposed RESTART, or one automatic diagnosis of the job's failure ({@code JOB_FAILED}) that found a cause;</li>
 * <li>the job opted in to automatic fault handling.</li>
 * </ul>
 * A command whose diagnoses have not arrived yet (the two topics are read independently) waits up to
 * {@code wait} after it was first checked; then, like any other failed check, it is invalid and goes to the dead-letter
 * topic with the reason. Whether a justified command can be carried out (retries left, restart supported, the
 * job still running) is the handler's: it records such a command as REFUSED.
 */
public final class CommandCheck {

    /** OK: act on it. WAIT: its diagnoses may still come. INVALID: dead-letter it, with {@code reason}. */
    public enum Outcome {
        OK, WAIT, INVALID
    }

    public record Verdict(Outcome outcome, String reason, List<KnownDiagnosis> diagnoses) {

        static Verdict invalid(String reason) {
            return new Verdict(Outcome.INVALID, reason, List.of());
        }
    }

    static final Set<String> UNDECIDED = Set.of("UNKNOWN", "HEALTHY");

    private CommandCheck() {
    }

    /**
     * @param job the command's job, null when job-service has none
     * @param known the named diagnoses that job-service received (any job)
     * @param writtenAt since when the command waits for its diagnoses (when it was first checked)
     */
    public static Verdict check(JobCommand c, String source, Set<String> trustedSources, JobRecord job,
            List<KnownDiagnosis> known, Instant writtenAt, Instant now, Duration wait) {
        if (source == null || !trustedSources.contains(source)) {
            return Verdict.invalid("source '" + source + "' may not command jobs (trusted: " + trustedSources + ")");
        }
        List<String> ids = c.diagnosisIds() == null ? List.of() : c.diagnosisIds();
        if (ids.isEmpty()) {
            return Verdict.invalid("a " + c.command() + " command must name the diagnoses that justify it");
        }
        if (ids.stream().distinct().count() != ids.size()) {
            return Verdict.invalid("the command names a diagnosis twice: " + ids);
        }
        if (job == null) {
            return Verdict.invalid("no job " + c.jobId() + " in job-service");
        }
        Map<String, KnownDiagnosis> byId = known.stream()
                .collect(Collectors.toMap(KnownDiagnosis::diagnosisId, Function.identity(), (a, b) -> a));
        for (String id : ids) {
            KnownDiagnosis d = byId.get(id);
            if (d == null) {
                boolean late = writtenAt != null && writtenAt.plus(wait).isBefore(now);
                return late ? Verdict.invalid("diagnosis " + id + " is unknown to job-service (waited " + wait + ")")
                        : new Verdict(Outcome.WAIT, "diagnosis " + id + " not received yet", List.of());
            }
            if (!c.jobId().equals(d.jobId())) {
                return Verdict.invalid("diagnosis " + id + " is of job " + d.jobId() + ", not of " + c.jobId());
            }
        }
        List<KnownDiagnosis> named = ids.stream().map(byId::get).toList();
        String why = justification(c.command(), named);
        if (why != null) {
            return Verdict.invalid(why);
        }
        if (!job.autoFaultHandling()) {
            return Verdict.invalid("job " + c.jobId() + " did not opt in to automatic fault handling");
        }
        return new Verdict(Outcome.OK, null, named);
    }

    /** Null when the diagnoses justify the command, else why not. */
    static String justification(JobCommand.Kind kind, List<KnownDiagnosis> named) {
        if (named.size() == 1) {
            KnownDiagnosis d = named.get(0);
            boolean failure = "JOB_FAILED".equals(d.trigger()) && d.category() != null
                    && !UNDECIDED.contains(d.category());
            return kind == JobCommand.Kind.RESTART && failure ? null
                    : "one diagnosis justifies only a RESTART after the job failed for a known cause; " + d.diagnosisId()
                            + " is " + d.trigger() + " " + d.category() + " → " + d.action();
        }
        if (named.size() != 2) {
            return "a command names one or two diagnoses, not " + named.size();
        }
        for (KnownDiagnosis d : named) {
            if (!kind.name().equals(d.action()) || d.category() == null || UNDECIDED.contains(d.category())) {
                return "diagnosis " + d.diagnosisId() + " proposed " + d.action() + " (" + d.category() + "), not "
                        + kind;
            }
        }
        return null;
    }
}
