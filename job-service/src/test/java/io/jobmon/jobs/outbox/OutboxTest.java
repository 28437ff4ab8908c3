package io.jobmon.jobs.outbox;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.contracts.events.CloudEvent;
import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.contracts.events.Topics;
import io.jobmon.jobs.TestJobs;
import io.jobmon.jobs.job.repository.JobRepository;
import io.jobmon.testsupport.KafkaTestClient;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import io.jobmon.contracts.outbox.KafkaSender;
import io.jobmon.contracts.outbox.Outbox;
import io.jobmon.contracts.outbox.OutboxRelay;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.eclipse.microprofile.config.ConfigProvider;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * job-service's use of the shared outbox: every change reaches jobmon.job.changes after its commit, keyed by job
 * id with a rising version; while the broker cannot be reached the snapshot waits in the table and is published
 * once it can ("Kafka down" here: a round with a producer pointed at a dead port while the scheduled relay is
 * paused; contracts' OutboxTest cuts a real broker link). The mechanism itself is tested in contracts.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithKubernetesTestServer
class OutboxTest {

    @Inject
    OutboxRelay relay;

    @Inject
    Outbox outbox;

    @Inject
    OutboxWriter writer;

    @Inject
    JobRepository jobs;

    @Inject
    Pool pool;

    static JobSnapshot snapshot(String value) {
        CloudEvent<JobSnapshot> e = CloudEvents.decode(value, JobSnapshot.class);
        return e.data();
    }

    long outboxRows(String id) {
        return pool.preparedQuery("SELECT count(*) AS n FROM outbox WHERE record_key = $1").execute(Tuple.of(id))
                .await().indefinitely().iterator().next().getLong("n");
    }

    @Test
    void everyChangeIsPublishedKeyedByJobIdWithARisingVersion() {
        String id = TestJobs.submit(Tokens.alice(), TestJobs.spec(Map.of("tags", List.of("a"))));
        io.jobmon.jobs.TestJobs.known(Tokens.carol());
        given().auth().oauth2(Tokens.alice()).contentType("application/json").body(Map.of("users", List.of("carol")))
                .put("/api/v1/jobs/" + id + "/shares").then().statusCode(200);
        var records = KafkaTestClient.await(Topics.JOB_CHANGES, r -> id.equals(r.key())
                && snapshot(r.value()).shares().contains("carol"), 1, Duration.ofSeconds(30));
        assertEquals(1, records.size());
        JobSnapshot s = snapshot(records.get(0).value());
        assertEquals("alice", s.owner());
        assertEquals("t1", s.tenant());
        assertEquals("project-nlp", s.project());
        assertEquals(List.of("a"), s.tags());
        assertTrue(s.version() >= 2);
    }

    @Test
    void aChangeCommittedWhileKafkaIsDownIsPublishedWhenItComesBack() {
        relay.pause();
        try {
            String id = TestJobs.submit(Tokens.alice());
            assertEquals(1, outboxRows(id));
            try (KafkaSender dead = new KafkaSender(Map.of("bootstrap.servers", "127.0.0.1:1"), Duration.ofSeconds(2))) {
                assertEquals(0, outbox.relay(dead).await().indefinitely());
            }
            assertEquals(1, outboxRows(id), "an unacknowledged snapshot stays in the outbox");
            assertTrue(KafkaTestClient.await(Topics.JOB_CHANGES, r -> id.equals(r.key()), 1, Duration.ofSeconds(2))
                    .isEmpty());
            relay.resume();
            var published = KafkaTestClient.await(Topics.JOB_CHANGES, r -> id.equals(r.key()), 1,
                    Duration.ofSeconds(30));
            assertEquals(1, published.size());
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> outboxRows(id) == 0);
        } finally {
            relay.resume();
        }
    }

    @Test
    void aRolledBackChangeNeverReachesTheOutbox() {
        String id = TestJobs.submit(Tokens.alice());
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> outboxRows(id) == 0);
        try {
            pool.withTransaction(tx -> jobs.setTags(tx, id, List.of("never")).chain(x -> writer.changed(tx, id))
                    .chain(x -> io.smallrye.mutiny.Uni.createFrom().failure(new IllegalStateException("boom"))))
                    .await().indefinitely();
        } catch (IllegalStateException expected) {
            // the transaction rolled back
        }
        assertEquals(0, outboxRows(id));
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + id).then()
                .body("tags", org.hamcrest.Matchers.hasSize(0));
    }

    @Test
    void aDeletedJobIsPublishedAsDeleted() {
        String id = TestJobs.submit(Tokens.alice());
        given().auth().oauth2(Tokens.alice()).post("/api/v1/jobs/" + id + "/stop").then().statusCode(200);
        given().auth().oauth2(Tokens.alice()).delete("/api/v1/jobs/" + id).then().statusCode(204);
        var records = KafkaTestClient.await(Topics.JOB_CHANGES, r -> id.equals(r.key())
                && snapshot(r.value()).deleted(), 1, Duration.ofSeconds(30));
        assertEquals(1, records.size());
    }
}
