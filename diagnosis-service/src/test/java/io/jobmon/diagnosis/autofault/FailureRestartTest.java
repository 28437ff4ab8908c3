package io.jobmon.diagnosis.autofault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.contracts.events.CloudEvent;
import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.JobCommand;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.events.Topics;
import io.jobmon.diagnosis.support.Diagnoses;
import io.jobmon.diagnosis.support.EvidenceServer;
import io.jobmon.diagnosis.support.Jobs;
import io.jobmon.diagnosis.support.Records;
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
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * Seed 001's fault tolerance through Kafka: a job that opted in and ended for a platform-side cause (its status
 * record on {@code jobmon.job.status}) gets one JOB_FAILED diagnosis, and on it a RESTART command on
 * {@code jobmon.job.commands} naming that diagnosis (job-service makes the next attempt of the chain with it as the
 * cause: its ConsumersTest). Nothing is commanded for the job's own faults, for a job that did not opt in, or past
 * its retry limit (recorded, with why).
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithTestResource(EvidenceServer.class)
class FailureRestartTest {

    @Inject
    Pool pool;

    @Test
    void aPreemptedJobIsRestartedOnItsOneDiagnosis() {
        String job = Jobs.newId("preempted");
        EvidenceServer.serve(job, Samples.recent("012-preempted.json", job, Instant.now()));
        Jobs.job(job).status(JobStatus.FAILED).autoFault(true, 0, 3).publish();
        Records.sendStatus(job, Records.status(job, JobStatus.FAILED, 6, "Preempted",
                "Pod is evicted, because of preempt", "Error", 143));

        JobCommand command = awaitCommand(job);
        assertEquals(JobCommand.Kind.RESTART, command.command());
        assertEquals(1, command.diagnosisIds().size(), "one diagnosis decided it: " + command.diagnosisIds());
        JsonPath d = Diagnoses.awaitFinished(Tokens.alice(), command.diagnosisIds().get(0));
        assertEquals("JOB_FAILED", d.getString("trigger"));
        assertEquals("PREEMPTED", d.getString("result.category"));
        assertTrue(command.reason().contains("PREEMPTED"), command.reason());
        Row action = actions(job).get(0);
        assertEquals("COMMANDED", action.getString("outcome"));
        assertNull(action.getString("first_diagnosis_id"));
        assertEquals(command.commandId(), action.getString("id"));
    }

    @Test
    void anAbnormalJobWhoseNodeWasLostIsRestarted() {
        String job = Jobs.newId("nodelost");
        EvidenceServer.serve(job, Samples.recent("011-node_failure.json", job, Instant.now()));
        Jobs.job(job).status(JobStatus.ABNORMAL).autoFault(true, 1, 3).publish();
        Records.sendStatus(job, Records.status(job, JobStatus.ABNORMAL, 4, "NodeLost",
                "Node gpu-a800-042 which was running pod is unresponsive", "Error", null));

        JobCommand command = awaitCommand(job);
        assertEquals(JobCommand.Kind.RESTART, command.command());
        assertEquals(1, command.diagnosisIds().size());
        JsonPath d = Diagnoses.awaitFinished(Tokens.alice(), command.diagnosisIds().get(0));
        assertEquals("JOB_FAILED", d.getString("trigger"));
        assertEquals("NODE_FAILURE", d.getString("result.category"));
    }

    @Test
    void nothingIsCommandedForTheJobsOwnFaultOrWithoutOptInAndPastTheLimitWhyIsRecorded() {
        String oom = Jobs.newId("ownfault");
        EvidenceServer.serve(oom, Samples.recent("008-gpu_oom.json", oom, Instant.now()));
        Jobs.job(oom).status(JobStatus.FAILED).autoFault(true, 0, 3).publish();
        String notOptedIn = Jobs.newId("noopt");
        EvidenceServer.serve(notOptedIn, Samples.recent("012-preempted.json", notOptedIn, Instant.now()));
        Jobs.job(notOptedIn).status(JobStatus.FAILED).publish();
        String spent = Jobs.newId("spent");
        EvidenceServer.serve(spent, Samples.recent("013-evicted.json", spent, Instant.now()));
        Jobs.job(spent).status(JobStatus.FAILED).autoFault(true, 2, 2).publish();
        for (String job : List.of(oom, notOptedIn, spent)) {
            Records.sendStatus(job, Records.status(job, JobStatus.FAILED, 3, "Error", "failed", "Error", 1));
        }
        for (String job : List.of(oom, notOptedIn, spent)) {
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> Diagnoses.history(Tokens.alice(), job)
                    .getList("items.status").contains("DONE"));
        }
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> !actions(spent).isEmpty());
        assertEquals("REFUSED", actions(spent).get(0).getString("outcome"));
        assertTrue(actions(spent).get(0).getString("reason").contains("retry limit"));
        assertTrue(actions(oom).isEmpty(), "GPU_OOM is the job's own: no decision");
        assertTrue(actions(notOptedIn).isEmpty(), "not opted in: no decision");
        for (String job : List.of(oom, notOptedIn, spent)) {
            assertTrue(KafkaTestClient.await(Topics.JOB_COMMANDS, r -> job.equals(r.key()), 1, Duration.ofSeconds(3))
                    .isEmpty(), "no command for " + job);
        }
    }

    private static JobCommand awaitCommand(String job) {
        List<ConsumerRecord<String, String>> found = KafkaTestClient.await(Topics.JOB_COMMANDS,
                r -> job.equals(r.key()), 1, Duration.ofSeconds(90));
        assertEquals(1, found.size(), "a command for " + job);
        CloudEvent<JobCommand> event = CloudEvents.decode(found.get(0).value(), JobCommand.class);
        assertEquals(job, event.data().jobId());
        return event.data();
    }

    private List<Row> actions(String job) {
        List<Row> out = new ArrayList<>();
        pool.preparedQuery("SELECT * FROM fault_action WHERE job_id = $1 ORDER BY created_at").execute(Tuple.of(job))
                .await().indefinitely().forEach(out::add);
        return out;
    }
}
