package io.jobmon.jobs.messaging;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.DiagnosisFinished;
import io.jobmon.contracts.events.JobCommand;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.events.JobStatusChanged;
import io.jobmon.contracts.events.PodSummary;
import io.jobmon.contracts.events.PodSummary.ContainerSummary;
import io.jobmon.contracts.events.Topics;
import io.jobmon.jobs.TestJobs;
import io.jobmon.testsupport.KafkaTestClient;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Automatic fault handling's commands over the real broker: executed once and only when justified (ADR 0011), and what
 * the job then says in both languages.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithKubernetesTestServer
class CommandsTest {

    static final String DIAGNOSIS_SERVICE = "/jobmon/diagnosis-service";

    /** A finished diagnosis of {@code job}, as diagnosis-service publishes it. */
    static String diagnosis(String job, String trigger, String category, String action) {
        String id = "d-" + UUID.randomUUID();
        KafkaTestClient.send(Topics.DIAGNOSES, job, CloudEvents.encode(DIAGNOSIS_SERVICE, DiagnosisFinished.TYPE, job,
                new DiagnosisFinished(id, job, trigger, category, action, category, 0.9, Instant.now())));
        return id;
    }

    /** A command of automatic fault handling from {@code source}, naming {@code diagnoses}; returns its id. */
    static String command(String job, JobCommand.Kind kind, String source, String... diagnoses) {
        String id = "c-" + UUID.randomUUID();
        KafkaTestClient.send(Topics.JOB_COMMANDS, job, CloudEvents.encode(source, JobCommand.TYPE, job,
                new JobCommand(id, job, kind, List.of(diagnoses), "the producer's words", Instant.now())));
        return id;
    }

    @Test
    void restartCreatesTheNextAttemptOnceAndRefusesPastTheLimit() {
        String id = TestJobs.submit(Tokens.alice(), TestJobs.spec(Map.of("supportsRestart", true,
                "autoFaultHandling", true, "maxRetries", 1)));
        ConsumersTest.send(TestJobs.status(id, JobStatus.RUNNING, 1, "Started"));
        ConsumersTest.awaitStatus(id, "RUNNING", 2);
        String d1 = diagnosis(id, "PERIODIC", "TRAINING_HANG", "RESTART");
        String d2 = diagnosis(id, "PERIODIC", "TRAINING_HANG", "RESTART");
        String cmd = "c-" + UUID.randomUUID();
        JobCommand restart = new JobCommand(cmd, id, JobCommand.Kind.RESTART, List.of(d1, d2), "TRAINING_HANG",
                Instant.now());
        String value = CloudEvents.encode(DIAGNOSIS_SERVICE, JobCommand.TYPE, id, restart);
        KafkaTestClient.send(Topics.JOB_COMMANDS, id, value);
        KafkaTestClient.send(Topics.JOB_COMMANDS, id, value); // delivered twice: executed once
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().auth().oauth2(Tokens.alice())
                .get("/api/v1/jobs/" + id + "/attempts").then()
                .body("attempts", hasSize(2)).body("commands", hasSize(1))
                .body("commands[0].outcome", equalTo("EXECUTED")));
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + id + "/attempts").then()
                .body("attempts[1].cause", equalTo("DIAGNOSIS")).body("attempts[1].diagnosisId", equalTo(d2))
                .body("retriesUsed", equalTo(1)).body("retriesLeft", equalTo(0));
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + id).then().body("status", equalTo("STOPPING"))
                .body("reason", equalTo("Restarting")).body("subState", equalTo("RESTARTING"))
                .body("subStateText", containsString("new attempt"))
                .body("message", containsString("restarted by automatic fault handling as attempt 2"))
                .body("message", containsString(d2)).body("message", containsString("training hang"));
        String second = given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + id + "/attempts")
                .then().extract().path("attempts[1].jobId");
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + second).then()
                .body("subState", equalTo("RETRYING")).body("retry.attempt", equalTo(2))
                .body("subStateText", containsString("attempt 2")).body("subStateText", containsString(d2));
        // the list says it too, in the reader's language
        given().auth().oauth2(Tokens.alice()).header("Accept-Language", "zh-CN")
                .get("/api/v1/jobs?name=" + second).then().body("items[0].subState", equalTo("RETRYING"))
                .body("items[0].subStateText", containsString("第 2 次尝试"));

        String failed = diagnosis(second, "JOB_FAILED", "NODE_FAILURE", "RESTART");
        command(second, JobCommand.Kind.RESTART, DIAGNOSIS_SERVICE, failed);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().auth().oauth2(Tokens.alice())
                .get("/api/v1/jobs/" + id + "/attempts").then().body("commands", hasSize(2))
                .body("commands[1].outcome", equalTo("REFUSED"))
                .body("commands[1].detail", org.hamcrest.Matchers.containsString("retry limit")));
    }

    /**
     * The guard's TERMINATE stops the job, and its status, reason and timeline say so in both languages with the
     * diagnoses and what they found, also after the cluster confirms the stop; a RESTART of a job that cannot
     * restart is refused and recorded.
     */
    @Test
    void terminateSaysTheGuardStoppedTheJobAndWhyAndRestartWithoutRestartSupportIsRefused() {
        String id = TestJobs.submit(Tokens.alice(), TestJobs.spec(Map.of("autoFaultHandling", true)));
        ConsumersTest.send(TestJobs.status(id, JobStatus.RUNNING, 1, "Started"));
        ConsumersTest.awaitStatus(id, "RUNNING", 2);
        String r1 = diagnosis(id, "PERIODIC", "TRAINING_HANG", "RESTART");
        String r2 = diagnosis(id, "PERIODIC", "TRAINING_HANG", "RESTART");
        command(id, JobCommand.Kind.RESTART, DIAGNOSIS_SERVICE, r1, r2);
        String t1 = diagnosis(id, "PERIODIC", "GPU_OOM", "TERMINATE");
        String t2 = diagnosis(id, "PERIODIC", "GPU_OOM", "TERMINATE");
        command(id, JobCommand.Kind.TERMINATE, DIAGNOSIS_SERVICE, t1, t2);
        ConsumersTest.awaitStatus(id, "STOPPING", 3);
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + id + "/attempts").then()
                .body("commands.outcome", contains("REFUSED", "EXECUTED"))
                .body("commands[0].detail", org.hamcrest.Matchers.containsString("supportsRestart"))
                .body("commands[1].reason", equalTo("two consecutive diagnoses found: GPU out of memory"));
        given().auth().oauth2(Tokens.alice()).header("Accept-Language", "zh-CN").get("/api/v1/jobs/" + id + "/attempts")
                .then().body("commands[0].reason", equalTo("连续两次诊断的结论：训练卡住"))
                .body("commands[1].reason", equalTo("连续两次诊断的结论：GPU 显存不足"));
        // the cluster confirms the stop: the job keeps saying who stopped it and why
        ConsumersTest.send(TestJobs.status(id, JobStatus.STOPPED, 2, "Stopped"));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().auth().oauth2(Tokens.alice())
                .get("/api/v1/jobs/" + id).then().body("status", equalTo("STOPPED")));
        given().auth().oauth2(Tokens.alice()).header("Accept-Language", "en").get("/api/v1/jobs/" + id).then()
                .body("reason", equalTo("TerminatedByFaultHandling"))
                .body("message", equalTo("stopped by automatic fault handling: GPU out of memory (diagnosis " + t1
                        + ", " + t2 + ")"));
        given().auth().oauth2(Tokens.alice()).header("Accept-Language", "zh-CN").get("/api/v1/jobs/" + id).then()
                .body("reason", equalTo("TerminatedByFaultHandling"))
                .body("message", equalTo("自动容错停止了作业：GPU 显存不足（诊断 " + t1 + ", " + t2 + "）"));
        given().auth().oauth2(Tokens.alice()).header("Accept-Language", "zh-CN").get("/api/v1/jobs/" + id + "/timeline")
                .then().body("items[2].reason", equalTo("TerminatedByFaultHandling"))
                .body("items[2].message", containsString("自动容错停止了作业"))
                .body("items[2].message", containsString(t2));
    }

    /**
     * job-service acts only on commands it can verify (issue #26): a forged producer, a command naming no
     * diagnosis, diagnoses of another job or that proposed something else, a job that did not opt in, and a
     * diagnosis that never arrives are dead-lettered with the reason and change nothing.
     */
    @Test
    void forgedAndUnjustifiedCommandsAreDeadLetteredAndNotExecuted() {
        String id = TestJobs.submit(Tokens.alice(), TestJobs.spec(Map.of("autoFaultHandling", true,
                "supportsRestart", true, "maxRetries", 3)));
        String optedOut = TestJobs.submit(Tokens.alice());
        String neighbour = TestJobs.submit(Tokens.bob());
        for (String j : List.of(id, optedOut, neighbour)) {
            ConsumersTest.send(TestJobs.status(j, JobStatus.RUNNING, 1, "Started"));
        }
        ConsumersTest.awaitStatus(id, "RUNNING", 2);
        ConsumersTest.awaitStatus(optedOut, "RUNNING", 2);
        String own1 = diagnosis(id, "PERIODIC", "CONTAINER_OOM", "TERMINATE");
        String own2 = diagnosis(id, "PERIODIC", "CONTAINER_OOM", "TERMINATE");
        String hang = diagnosis(id, "PERIODIC", "TRAINING_HANG", "RESTART");
        String other1 = diagnosis(neighbour, "PERIODIC", "CONTAINER_OOM", "TERMINATE");
        String other2 = diagnosis(neighbour, "PERIODIC", "CONTAINER_OOM", "TERMINATE");
        String out1 = diagnosis(optedOut, "PERIODIC", "CONTAINER_OOM", "TERMINATE");
        String out2 = diagnosis(optedOut, "PERIODIC", "CONTAINER_OOM", "TERMINATE");
        Map<String, String> expected = new java.util.LinkedHashMap<>();
        expected.put(command(id, JobCommand.Kind.TERMINATE, "probe", own1, own2), "may not command jobs");
        expected.put(command(id, JobCommand.Kind.TERMINATE, DIAGNOSIS_SERVICE), "must name the diagnoses");
        expected.put(command(id, JobCommand.Kind.TERMINATE, DIAGNOSIS_SERVICE, other1, other2), "of job " + neighbour);
        expected.put(command(id, JobCommand.Kind.TERMINATE, DIAGNOSIS_SERVICE, own1, hang), "proposed RESTART");
        expected.put(command(id, JobCommand.Kind.RESTART, DIAGNOSIS_SERVICE, own1, own2), "proposed TERMINATE");
        expected.put(command(optedOut, JobCommand.Kind.TERMINATE, DIAGNOSIS_SERVICE, out1, out2), "did not opt in");
        expected.put(command(id, JobCommand.Kind.TERMINATE, DIAGNOSIS_SERVICE, own1, "d-never"), "unknown to job-service");
        for (Map.Entry<String, String> e : expected.entrySet()) {
            var dead = KafkaTestClient.await(Topics.dlq(Topics.JOB_COMMANDS),
                    r -> r.value() != null && r.value().contains(e.getKey()), 1, Duration.ofSeconds(60));
            assertEquals(1, dead.size(), "dead-lettered: " + e.getKey());
            assertTrue(ConsumersTest.reason(dead.get(0)).contains(e.getValue()), ConsumersTest.reason(dead.get(0)));
        }
        for (String j : List.of(id, optedOut)) {
            given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + j).then().body("status", equalTo("RUNNING"));
            given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + j + "/attempts").then()
                    .body("commands", hasSize(0)).body("attempts", hasSize(1));
        }
    }

    /**
     * Automatic fault handling of a job that already ended (one JOB_FAILED diagnosis of a platform-side cause): the
     * RESTART makes the next attempt of its chain, with the diagnosis as its cause; the ended attempt stays as it was.
     */
    @Test
    void restartOfAJobThatFailedForThePlatformMakesTheNextAttempt() {
        String id = TestJobs.submit(Tokens.alice(), TestJobs.spec(Map.of("supportsRestart", true,
                "autoFaultHandling", true, "maxRetries", 2)));
        ConsumersTest.send(TestJobs.status(id, JobStatus.RUNNING, 1, "Started"));
        ConsumersTest.send(TestJobs.status(id, JobStatus.FAILED, 2, "Preempted"));
        ConsumersTest.awaitStatus(id, "FAILED", 3);
        String diagnosis = diagnosis(id, "JOB_FAILED", "PREEMPTED", "RESTART");
        command(id, JobCommand.Kind.RESTART, DIAGNOSIS_SERVICE, diagnosis);
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().auth().oauth2(Tokens.alice())
                .get("/api/v1/jobs/" + id + "/attempts").then().body("attempts", hasSize(2))
                .body("commands[0].outcome", equalTo("EXECUTED")));
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + id + "/attempts").then()
                .body("attempts[1].attempt", equalTo(2)).body("attempts[1].cause", equalTo("DIAGNOSIS"))
                .body("attempts[1].diagnosisId", equalTo(diagnosis)).body("attempts[1].previousId", equalTo(id))
                .body("retriesUsed", equalTo(1)).body("retriesLeft", equalTo(1));
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + id).then().body("status", equalTo("FAILED"));
    }

    /** An ABNORMAL job (its node was lost) still holds its pods: the restart stops it and makes the next attempt. */
    @Test
    void restartOfAnAbnormalJobStopsItAndMakesTheNextAttempt() {
        String id = TestJobs.submit(Tokens.alice(), TestJobs.spec(Map.of("supportsRestart", true,
                "autoFaultHandling", true, "maxRetries", 1)));
        ConsumersTest.send(TestJobs.status(id, JobStatus.RUNNING, 1, "Started"));
        ConsumersTest.send(TestJobs.status(id, JobStatus.ABNORMAL, 2, "NodeLost"));
        ConsumersTest.awaitStatus(id, "ABNORMAL", 3);
        command(id, JobCommand.Kind.RESTART, DIAGNOSIS_SERVICE, diagnosis(id, "JOB_FAILED", "NODE_FAILURE",
                "CONTACT_ADMIN"));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().auth().oauth2(Tokens.alice())
                .get("/api/v1/jobs/" + id + "/attempts").then().body("attempts", hasSize(2))
                .body("commands[0].outcome", equalTo("EXECUTED")));
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + id).then().body("status", equalTo("STOPPING"));
    }
}
