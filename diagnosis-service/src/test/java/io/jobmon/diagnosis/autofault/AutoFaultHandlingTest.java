package io.jobmon.diagnosis.autofault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.contracts.events.CloudEvent;
import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.JobCommand;
import io.jobmon.contracts.events.Topics;
import io.jobmon.diagnosis.support.Diagnoses;
import io.jobmon.diagnosis.support.EvidenceServer;
import io.jobmon.diagnosis.support.Jobs;
import io.jobmon.diagnosis.support.Samples;
import io.jobmon.testsupport.KafkaTestClient;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import io.restassured.path.json.JsonPath;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * Running jobs that opted in are diagnosed every interval (2 s in tests); two consecutive diagnoses agreeing on
 * RESTART or TERMINATE publish one command, recorded with both diagnosis ids.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithTestResource(EvidenceServer.class)
class AutoFaultHandlingTest {

    @Inject
    Pool pool;

    @Test
    void twoConsecutiveRestartDiagnosesPublishExactlyOneCommandWithBothIds() {
        String job = Jobs.newId("hang");
        EvidenceServer.serve(job, Samples.recent("017-training_hang.json", job, Instant.now()));
        Jobs.job(job).autoFault(true, 0, 3).publish();

        List<ConsumerRecord<String, String>> commands = KafkaTestClient.await(Topics.JOB_COMMANDS,
                r -> job.equals(r.key()), 1, Duration.ofSeconds(90));
        assertEquals(1, commands.size(), "a command for " + job);
        CloudEvent<JobCommand> command = CloudEvents.decode(commands.get(0).value(), JobCommand.class);
        assertEquals(JobCommand.Kind.RESTART, command.data().command());
        assertEquals(2, command.data().diagnosisIds().size());
        for (String id : command.data().diagnosisIds()) {
            JsonPath d = Diagnoses.awaitFinished(Tokens.alice(), id);
            assertEquals("PERIODIC", d.getString("trigger"));
            assertEquals(job, d.getString("jobId"));
            assertEquals("RESTART", d.getString("result.action"));
        }
        assertEquals(List.of("COMMANDED:" + String.join(",", command.data().diagnosisIds())), actions(job));

        // more agreeing diagnoses follow (every 2 s), but the job is not commanded again
        int before = periodicDone(job);
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> periodicDone(job) >= before + 2);
        assertEquals(1, KafkaTestClient.await(Topics.JOB_COMMANDS, r -> job.equals(r.key()), 2,
                Duration.ofSeconds(3)).size());
        assertEquals(1, actions(job).size());
    }

    @Test
    void twoConsecutiveTerminateDiagnosesOfARunningJobStopItWithOneCommand() {
        // A running job whose worker keeps dying of CUDA OOM (restarted by its pod, so the job stays RUNNING):
        // restarting cannot help, the batch size must change.
        String job = Jobs.newId("cudaoom");
        EvidenceServer.serve(job, Samples.recent("008-gpu_oom.json", job, Instant.now()));
        Jobs.job(job).autoFault(true, 0, 3).publish();

        List<ConsumerRecord<String, String>> commands = KafkaTestClient.await(Topics.JOB_COMMANDS,
                r -> job.equals(r.key()), 1, Duration.ofSeconds(90));
        assertEquals(1, commands.size(), "a command for " + job);
        CloudEvent<JobCommand> command = CloudEvents.decode(commands.get(0).value(), JobCommand.class);
        assertEquals(JobCommand.Kind.TERMINATE, command.data().command());
        assertEquals(2, command.data().diagnosisIds().size());
        for (String id : command.data().diagnosisIds()) {
            JsonPath d = Diagnoses.awaitFinished(Tokens.alice(), id);
            assertEquals("PERIODIC", d.getString("trigger"));
            assertEquals("TERMINATE", d.getString("result.action"));
        }
        assertEquals(List.of("COMMANDED:" + String.join(",", command.data().diagnosisIds())), actions(job));
    }

    @Test
    void aRestartBeyondTheRetryLimitIsNotPublishedAndTheReasonIsRecorded() {
        String job = Jobs.newId("nomore");
        EvidenceServer.serve(job, Samples.recent("017-training_hang.json", job, Instant.now()));
        Jobs.job(job).autoFault(true, 3, 3).publish();
        Awaitility.await().atMost(Duration.ofSeconds(90)).until(() -> !actions(job).isEmpty());
        assertTrue(actions(job).get(0).startsWith("REFUSED:"), actions(job).toString());
        assertTrue(reasons(job).get(0).contains("retry limit"), reasons(job).toString());
        assertTrue(KafkaTestClient.await(Topics.JOB_COMMANDS, r -> job.equals(r.key()), 1, Duration.ofSeconds(3))
                .isEmpty());
    }

    @Test
    void aHealthyJobIsNeverCommanded() {
        String job = Jobs.newId("healthy");
        EvidenceServer.serve(job, Samples.recent("021-healthy.json", job, Instant.now()));
        Jobs.job(job).autoFault(true, 0, 3).publish();
        Awaitility.await().atMost(Duration.ofSeconds(90)).until(() -> periodicDone(job) >= 3);
        JsonPath history = Diagnoses.history(Tokens.alice(), job);
        List<String> categories = history.getList("items.findAll { it.status == 'DONE' }.result.category");
        List<String> actions = history.getList("items.findAll { it.status == 'DONE' }.result.action");
        assertTrue(categories.size() >= 3 && categories.stream().allMatch("HEALTHY"::equals), categories.toString());
        assertTrue(actions.stream().allMatch("NONE"::equals), actions.toString());
        assertTrue(actions(job).isEmpty());
        assertTrue(KafkaTestClient.await(Topics.JOB_COMMANDS, r -> job.equals(r.key()), 1, Duration.ofSeconds(3))
                .isEmpty());
    }

    private int periodicDone(String job) {
        List<Map<String, Object>> items = Diagnoses.history(Tokens.alice(), job).getList("items");
        return (int) items.stream().filter(d -> "PERIODIC".equals(d.get("trigger")) && "DONE".equals(d.get("status")))
                .count();
    }

    private List<String> actions(String job) {
        List<String> out = new ArrayList<>();
        pool.preparedQuery("SELECT outcome, first_diagnosis_id, second_diagnosis_id FROM fault_action WHERE job_id = $1 "
                + "ORDER BY created_at").execute(Tuple.of(job)).await().indefinitely()
                .forEach(r -> out.add(r.getString("outcome") + ":" + r.getString("first_diagnosis_id") + ","
                        + r.getString("second_diagnosis_id")));
        return out;
    }

    private List<String> reasons(String job) {
        List<String> out = new ArrayList<>();
        pool.preparedQuery("SELECT reason FROM fault_action WHERE job_id = $1 ORDER BY created_at")
                .execute(Tuple.of(job)).await().indefinitely().forEach(r -> out.add(r.getString("reason")));
        return out;
    }
}
