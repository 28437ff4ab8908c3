package io.jobmon.diagnosis.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.events.Topics;
import io.jobmon.diagnosis.support.Diagnoses;
import io.jobmon.diagnosis.support.EvidenceServer;
import io.jobmon.diagnosis.support.Jobs;
import io.jobmon.diagnosis.support.Records;
import io.jobmon.testsupport.KafkaTestClient;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** A record that cannot be used goes to {@code <topic>.dlq} with the reason, and the partition moves on. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithTestResource(EvidenceServer.class)
class DeadLetterTest {

    @Test
    void aStatusRecordThatIsNotJsonGoesToTheDlqAndTheNextOneIsProcessed() {
        String key = Jobs.newId("garbage");
        KafkaTestClient.send(Topics.JOB_STATUS, key, "this is not JSON {");
        ConsumerRecord<String, String> dead = awaitDead(Topics.JOB_STATUS, key);
        assertEquals("this is not JSON {", dead.value());
        assertTrue(reason(dead).contains("not JSON"), reason(dead));

        String job = Jobs.job(Jobs.newId("after")).publish();
        Records.sendStatus(job, Records.status(job, JobStatus.FAILED, 1, "Error", "exit 1", "Error", 1));
        Awaitility.await().atMost(Duration.ofSeconds(60))
                .until(() -> Diagnoses.history(Tokens.alice(), job).getList("items").size() == 1);
    }

    @Test
    void aSnapshotWithoutOwnerGoesToTheDlqWithTheReason() {
        String key = Jobs.newId("ownerless");
        String value = CloudEvents.encode("/test", "io.jobmon.job.snapshot.v1", key,
                Map.of("jobId", key, "tenant", "t1", "version", 1, "shares", List.of()));
        KafkaTestClient.send(Topics.JOB_CHANGES, key, value);
        ConsumerRecord<String, String> dead = awaitDead(Topics.JOB_CHANGES, key);
        assertTrue(reason(dead).contains("owner"), reason(dead));
        Jobs.job(Jobs.newId("after")).publish(); // the partition moved on
    }

    /** The envelope check on both channels: foreign types, other spec versions and mismatched keys are refused. */
    @Test
    void foreignTypesOtherSpecVersionsAndMismatchedKeysGoToTheDlqAndCreateNothing() {
        String job = Jobs.job(Jobs.newId("envelope")).publish();
        String failed = Records.status(job, JobStatus.FAILED, 1, "Error", "exit 1", "Error", 1);
        KafkaTestClient.send(Topics.JOB_STATUS, job, failed.replace("io.jobmon.job.status.v1", "com.evil.thing"));
        KafkaTestClient.send(Topics.JOB_STATUS, job, failed.replace("\"specversion\":\"1.0\"", "\"specversion\":\"2.0\""));
        String other = Jobs.newId("other");
        KafkaTestClient.send(Topics.JOB_STATUS, other, failed);
        List<ConsumerRecord<String, String>> dead = KafkaTestClient.await(Topics.dlq(Topics.JOB_STATUS),
                r -> r.value() != null && r.value().contains(job), 3, Duration.ofSeconds(60));
        assertEquals(3, dead.size());
        assertTrue(reason(dead.get(0)).contains("com.evil.thing"), reason(dead.get(0)));
        assertTrue(reason(dead.get(1)).contains("specversion"), reason(dead.get(1)));
        assertTrue(reason(dead.get(2)).contains(other), reason(dead.get(2)));
        assertEquals(0, Diagnoses.history(Tokens.alice(), job).getList("items").size(),
                "no automatic diagnosis came of a refused record");

        String ghost = Jobs.newId("ghost");
        String snapshot = CloudEvents.encode("/test", "io.jobmon.job.snapshot.v1", ghost, Map.of("jobId", ghost,
                "tenant", "t1", "owner", "alice", "version", 1, "shares", List.of()));
        KafkaTestClient.send(Topics.JOB_CHANGES, Jobs.newId("not-the-subject"), snapshot);
        KafkaTestClient.send(Topics.JOB_CHANGES, ghost, snapshot.replace("io.jobmon.job.snapshot.v1", "com.evil.thing"));
        List<ConsumerRecord<String, String>> refused = KafkaTestClient.await(Topics.dlq(Topics.JOB_CHANGES),
                r -> r.value() != null && r.value().contains(ghost), 2, Duration.ofSeconds(60));
        assertEquals(2, refused.size(), "no ghost access row from a snapshot keyed or typed wrongly");
    }

    private static ConsumerRecord<String, String> awaitDead(String topic, String key) {
        List<ConsumerRecord<String, String>> dead = KafkaTestClient.await(Topics.dlq(topic), r -> key.equals(r.key()), 1,
                Duration.ofSeconds(60));
        assertEquals(1, dead.size(), "the record on " + Topics.dlq(topic));
        return dead.get(0);
    }

    private static String reason(ConsumerRecord<String, String> r) {
        Header h = r.headers().lastHeader("dead-letter-reason");
        return h == null ? "" : new String(h.value(), StandardCharsets.UTF_8);
    }
}
