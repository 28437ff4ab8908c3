package io.jobmon.jobs.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.contracts.access.Visibility;
import io.jobmon.contracts.events.JobCommand;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.jobs.job.model.AttemptCause;
import io.jobmon.jobs.job.model.JobRecord;
import io.jobmon.jobs.job.model.Priority;
import io.jobmon.jobs.job.repository.CommandRepository.KnownDiagnosis;
import io.jobmon.jobs.messaging.CommandCheck.Outcome;
import io.jobmon.jobs.messaging.CommandCheck.Verdict;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which commands job-service acts on: only justified ones of the trusted producer, for jobs that opted in. */
class CommandCheckTest {

    static final String DIAGNOSIS_SERVICE = "/jobmon/diagnosis-service";
    static final Set<String> TRUSTED = Set.of(DIAGNOSIS_SERVICE);
    static final Instant NOW = Instant.parse("2026-12-04T10:00:00Z");

    static JobRecord job(boolean optedIn) {
        return new JobRecord("j-1", "t1", "alice", null, "n", "c", "r", "ns", "q", Priority.NORMAL, JobStatus.RUNNING,
                "Started", null, null, null, null, null, "A800", 1, 1, Visibility.PRIVATE, List.of(), List.of(), null,
                true, optedIn, 3, "j-1", 1, AttemptCause.INITIAL, null, null, null, 0, null, NOW, NOW, NOW, null, 2, 1,
                NOW);
    }

    static KnownDiagnosis periodic(String id, String job, String category, String action) {
        return new KnownDiagnosis(id, job, category, action, "PERIODIC");
    }

    static JobCommand command(JobCommand.Kind kind, String... ids) {
        return new JobCommand("c-1", "j-1", kind, List.of(ids), "why", NOW);
    }

    static Verdict check(JobCommand c, String source, boolean optedIn, List<KnownDiagnosis> known, Instant written) {
        return CommandCheck.check(c, source, TRUSTED, job(optedIn), known, written, NOW, Duration.ofMinutes(2));
    }

    @Test
    void twoAgreeingDiagnosesOfTheJobJustifyTheirActionForAJobThatOptedIn() {
        List<KnownDiagnosis> terminate = List.of(periodic("d-1", "j-1", "CONTAINER_OOM", "TERMINATE"),
                periodic("d-2", "j-1", "CONTAINER_OOM", "TERMINATE"));
        Verdict ok = check(command(JobCommand.Kind.TERMINATE, "d-1", "d-2"), DIAGNOSIS_SERVICE, true, terminate, NOW);
        assertEquals(Outcome.OK, ok.outcome());
        assertEquals(2, ok.diagnoses().size());
        List<KnownDiagnosis> restart = List.of(periodic("d-1", "j-1", "TRAINING_HANG", "RESTART"),
                periodic("d-2", "j-1", "NCCL_COMMUNICATION_ERROR", "RESTART"));
        assertEquals(Outcome.OK, check(command(JobCommand.Kind.RESTART, "d-1", "d-2"), DIAGNOSIS_SERVICE, true,
                restart, NOW).outcome());
        KnownDiagnosis failure = new KnownDiagnosis("d-9", "j-1", "NODE_FAILURE", "RESTART", "JOB_FAILED");
        assertEquals(Outcome.OK, check(command(JobCommand.Kind.RESTART, "d-9"), DIAGNOSIS_SERVICE, true,
                List.of(failure), NOW).outcome());
    }

    @Test
    void aForgedOrUnjustifiedCommandIsInvalidAndSaysWhy() {
        List<KnownDiagnosis> terminate = List.of(periodic("d-1", "j-1", "CONTAINER_OOM", "TERMINATE"),
                periodic("d-2", "j-1", "CONTAINER_OOM", "TERMINATE"));
        assertInvalid(check(command(JobCommand.Kind.TERMINATE, "d-1", "d-2"), "probe", true, terminate, NOW), "source");
        assertInvalid(check(command(JobCommand.Kind.TERMINATE), DIAGNOSIS_SERVICE, true, List.of(), NOW),
                "must name the diagnoses");
        assertInvalid(check(command(JobCommand.Kind.TERMINATE, "d-1", "d-2"), DIAGNOSIS_SERVICE, false, terminate, NOW),
                "did not opt in");
        // a neighbour's diagnoses do not justify stopping this job
        List<KnownDiagnosis> neighbour = List.of(periodic("d-1", "j-2", "CONTAINER_OOM", "TERMINATE"),
                periodic("d-2", "j-2", "CONTAINER_OOM", "TERMINATE"));
        assertInvalid(check(command(JobCommand.Kind.TERMINATE, "d-1", "d-2"), DIAGNOSIS_SERVICE, true, neighbour, NOW),
                "of job j-2");
        // diagnoses that proposed something else
        List<KnownDiagnosis> mixed = List.of(periodic("d-1", "j-1", "TRAINING_HANG", "RESTART"),
                periodic("d-2", "j-1", "HEALTHY", "NONE"));
        assertInvalid(check(command(JobCommand.Kind.TERMINATE, "d-1", "d-2"), DIAGNOSIS_SERVICE, true, mixed, NOW),
                "proposed RESTART");
        // one periodic diagnosis justifies nothing; a failure diagnosis justifies only a restart
        assertInvalid(check(command(JobCommand.Kind.TERMINATE, "d-1"), DIAGNOSIS_SERVICE, true, terminate, NOW),
                "one diagnosis");
        KnownDiagnosis failure = new KnownDiagnosis("d-9", "j-1", "UNKNOWN", "CONTACT_ADMIN", "JOB_FAILED");
        assertInvalid(check(command(JobCommand.Kind.RESTART, "d-9"), DIAGNOSIS_SERVICE, true, List.of(failure), NOW),
                "one diagnosis");
        assertInvalid(check(command(JobCommand.Kind.TERMINATE, "d-1", "d-1"), DIAGNOSIS_SERVICE, true, terminate, NOW),
                "twice");
    }

    @Test
    void aDiagnosisNotReceivedYetIsWaitedForThenTheCommandIsInvalid() {
        JobCommand c = command(JobCommand.Kind.TERMINATE, "d-1", "d-2");
        List<KnownDiagnosis> one = List.of(periodic("d-1", "j-1", "CONTAINER_OOM", "TERMINATE"));
        assertEquals(Outcome.WAIT, check(c, DIAGNOSIS_SERVICE, true, one, NOW.minusSeconds(30)).outcome());
        assertInvalid(check(c, DIAGNOSIS_SERVICE, true, one, NOW.minusSeconds(180)), "unknown to job-service");
    }

    private static void assertInvalid(Verdict v, String why) {
        assertEquals(Outcome.INVALID, v.outcome(), v.toString());
        assertTrue(v.reason().contains(why), v.reason());
    }
}
