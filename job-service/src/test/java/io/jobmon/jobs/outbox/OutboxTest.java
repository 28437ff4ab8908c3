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
import io.jobmon.jobs.config.OutboxConfig;
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
 * The outbox: every change reaches jobmon.job.changes after its commit; while the broker cannot be reached the
 * snapshot waits in the table, and is published once it can. The shared test broker cannot be stopped, so "Kafka
 * down" is a relay round with a producer pointed at a dead port, while the scheduled relay is paused.
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
        return pool.preparedQuery("SELECT count(*) AS n FROM outbox WHERE job_id = $1").execute(Tuple.of(id))
                .await().indefinitely().iterator().next().getLong("n");
    }

    @Test
    void everyChangeIsPublishedKeyedByJobIdWithARisingVersion() {
        String id = TestJobs.submit(Tokens.alice(), TestJobs.spec(Map.of("tags", List.of("a"))));
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
            try (KafkaOutboxPublisher dead = new KafkaOutboxPublisher("127.0.0.1:1", Duration.ofSeconds(2))) {
                assertEquals(0, relay.runOnce(dead));
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
            pool.withTransaction(tx -> jobs.setTags(tx, id, List.of("never")).flatMap(x -> writer.changed(tx, id))
                    .flatMap(x -> io.smallrye.mutiny.Uni.createFrom().failure(new IllegalStateException("boom"))))
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

    @Test
    void twoRelayInstancesShareTheOutboxAndNeverPublishAChangeTwice() throws Exception {
        // Start from an empty outbox, so that the two instances below see this test's rows only.
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> relay.pending() == 0);
        relay.pause();
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            Set<String> ids = new HashSet<>();
            for (int i = 0; i < 30; i++) {
                ids.add(TestJobs.submit(Tokens.alice()));
            }
            String bootstrap = ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class);
            OutboxRelay a = new OutboxRelay(pool, smallBatches(), bootstrap);
            OutboxRelay b = new OutboxRelay(pool, smallBatches(), bootstrap);
            Map<String, String> publishedBy = new ConcurrentHashMap<>();
            List<String> twice = new CopyOnWriteArrayList<>();
            // Both instances hold a claim at the same time before either publishes: their claims must be disjoint.
            CountDownLatch bothClaimed = new CountDownLatch(2);
            Callable<Void> drainA = drain(a, recording("a", ids, publishedBy, twice, bothClaimed), ids, publishedBy);
            Callable<Void> drainB = drain(b, recording("b", ids, publishedBy, twice, bothClaimed), ids, publishedBy);
            for (var f : threads.invokeAll(List.of(drainA, drainB), 60, TimeUnit.SECONDS)) {
                f.get();
            }
            assertEquals(List.of(), twice, "a snapshot published by both instances");
            assertEquals(ids, publishedBy.keySet().stream().map(k -> k.substring(0, k.indexOf('@')))
                    .collect(Collectors.toSet()));
            assertTrue(publishedBy.containsValue("a") && publishedBy.containsValue("b"), "both instances worked");
            for (String id : ids) {
                assertEquals(0, outboxRows(id), id + " left in the outbox");
            }
        } finally {
            threads.shutdownNow();
            relay.resume();
        }
    }

    private static Callable<Void> drain(OutboxRelay relay, OutboxPublisher publisher, Set<String> ids,
            Map<String, String> publishedBy) {
        return () -> {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(45);
            while (publishedBy.size() < ids.size() && System.nanoTime() < deadline) {
                if (relay.runOnce(publisher) == 0) {
                    Thread.sleep(20);
                }
            }
            return null;
        };
    }

    /** Acknowledges this test's jobs only (other tests' rows stay for the real relay), noting who sent what. */
    private static OutboxPublisher recording(String name, Set<String> ids, Map<String, String> publishedBy,
            List<String> twice, CountDownLatch bothClaimed) {
        return new OutboxPublisher() {
            private boolean first = true;

            @Override
            public List<Entry> publish(List<Entry> entries) {
                if (first) {
                    first = false;
                    bothClaimed.countDown();
                    try {
                        bothClaimed.await(20, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                List<Entry> acked = new ArrayList<>();
                for (Entry e : entries) {
                    if (ids.contains(e.jobId())) {
                        if (publishedBy.putIfAbsent(e.jobId() + "@" + e.version(), name) != null) {
                            twice.add(e.jobId() + "@" + e.version());
                        }
                        acked.add(e);
                    }
                }
                return acked;
            }

            @Override
            public void close() {
            }
        };
    }

    private static OutboxConfig smallBatches() {
        return new OutboxConfig() {
            @Override
            public boolean enabled() {
                return true;
            }

            @Override
            public String interval() {
                return "0.5s";
            }

            @Override
            public int batchSize() {
                return 4;
            }

            @Override
            public Duration claimTtl() {
                return Duration.ofSeconds(30);
            }

            @Override
            public Duration sendTimeout() {
                return Duration.ofSeconds(10);
            }
        };
    }
}
