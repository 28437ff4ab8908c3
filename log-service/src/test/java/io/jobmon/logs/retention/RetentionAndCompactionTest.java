package io.jobmon.logs.retention;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.logs.Fixtures;
import io.jobmon.logs.chunk.ChunkPartitions;
import io.jobmon.logs.chunk.Compactor;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Expiry (410 once gone, per-tenant days, unknown jobs, empty partitions) and compaction of flushed chunks. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
class RetentionAndCompactionTest {

    static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    RetentionJob retention;
    @Inject
    Compactor compactor;
    @Inject
    ChunkPartitions partitions;
    @Inject
    Pool pool;
    @Inject
    MeterRegistry registry;

    String jobWithLines(String tenant, Instant finishedAt, int lines) {
        String job = Fixtures.newJob();
        JobSnapshot s = Fixtures.job(job, "PRIVATE", List.of(), List.of(job + "-w0"), 1);
        s = new JobSnapshot(s.jobId(), tenant, s.owner(), s.project(), s.visibility(), s.shares(), s.name(), s.cluster(),
                s.region(), s.queue(), s.status(), null, s.gpuType(), s.gpuCount(), s.pods(), s.nodes(), false, false, 0, 0,
                s.submittedAt(), s.startedAt(), finishedAt, 1, false, s.namespace(), null, List.of());
        Fixtures.publish(s);
        List<String> records = new ArrayList<>();
        for (int i = 0; i < lines; i++) {
            records.add(Fixtures.fluentBit(job, job + "-w0", "trainer", Instant.parse("2026-07-13T10:00:00Z").plusSeconds(i),
                    "line " + i));
        }
        Fixtures.sendAll(records);
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> Fixtures.count(pool,
                "SELECT coalesce(sum(lines), 0) FROM chunk WHERE job_id = $1", job) == lines
                && Fixtures.count(pool, "SELECT count(*) FROM job_info WHERE job_id = $1", job) == 1);
        return job;
    }

    @Test
    void aJobsLogsGoRetentionDaysAfterItEndedAndItsQueriesThenSay410() {
        Instant now = Instant.now();
        String old = jobWithLines("t1", now.minus(Duration.ofDays(31)), 5);
        String recent = jobWithLines("t1", now.minus(Duration.ofDays(29)), 5);
        String longTenant = jobWithLines("t9", now.minus(Duration.ofDays(31)), 5);
        RetentionJob.Expired e = retention.expire(now).await().atMost(WAIT);
        assertTrue(e.jobs() >= 1);
        assertEquals(0, Fixtures.count(pool, "SELECT count(*) FROM chunk WHERE job_id = $1", old));
        assertEquals(5, Fixtures.count(pool, "SELECT sum(lines) FROM chunk WHERE job_id = $1", recent));
        assertEquals(5, Fixtures.count(pool, "SELECT sum(lines) FROM chunk WHERE job_id = $1", longTenant), "t9 keeps 60 days");
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + old + "/logs").then().statusCode(410)
                .contentType("application/problem+json").body("type", equalTo("https://jobmon.io/problems/retention-expired"));
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + old + "/logs/pods").then().statusCode(410);
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + recent + "/logs").then().statusCode(200)
                .body("retention.days", equalTo(30)).body("retention.keptUntil", notNullValue());
    }

    /** Pod identities and GPU holdings (whose a node's line is) go with the longest retention, a kept job's stay. */
    @Test
    void podIdentitiesAndGpuHoldingsGoWithTheLongestRetentionUnlessAKeptJobsPod() {
        String running = jobWithLines("t1", null, 1);
        String gone = "gone-" + Fixtures.newJob();
        Instant now = Instant.now();
        pool.preparedQuery("INSERT INTO pod_identity (namespace, pod, uid, container_id, node, seen_at) VALUES"
                + " ('team-nlp', $1, 'u1', 'c1', 'n', $3), ('team-nlp', $2, 'u2', 'c2', 'n', $3)")
                .execute(io.vertx.mutiny.sqlclient.Tuple.of(running + "-w0", gone,
                        now.minus(Duration.ofDays(90)).atOffset(java.time.ZoneOffset.UTC))).await().atMost(WAIT);
        pool.preparedQuery("INSERT INTO gpu_holding (node, gpu_key, namespace, pod, from_time, to_time) VALUES"
                + " ('n', 'GPU-1', 'team-nlp', $1, $2, $3), ('n', 'GPU-2', 'team-nlp', $1, $2, NULL)")
                .execute(io.vertx.mutiny.sqlclient.Tuple.of(gone, now.minus(Duration.ofDays(95)).atOffset(java.time.ZoneOffset.UTC),
                        now.minus(Duration.ofDays(90)).atOffset(java.time.ZoneOffset.UTC))).await().atMost(WAIT);
        retention.expire(now).await().atMost(WAIT);
        assertEquals(1, Fixtures.count(pool, "SELECT count(*) FROM pod_identity WHERE pod = $1", running + "-w0"));
        assertEquals(0, Fixtures.count(pool, "SELECT count(*) FROM pod_identity WHERE pod = $1", gone));
        assertEquals(1, Fixtures.count(pool, "SELECT count(*) FROM gpu_holding WHERE pod = $1", gone), "still held: kept");
    }

    @Test
    void runningJobsKeepEverything() {
        String running = jobWithLines("t1", null, 3);
        retention.expire(Instant.now().plus(Duration.ofDays(400))).await().atMost(WAIT);
        assertEquals(3, Fixtures.count(pool, "SELECT sum(lines) FROM chunk WHERE job_id = $1", running));
    }

    @Test
    void linesOfAJobNobodyAnnouncedAreDroppedAfterTheGraceAndCounted() throws Exception {
        String ghost = Fixtures.newJob();
        Fixtures.send(Fixtures.fluentBit(ghost, ghost + "-w0", "trainer", Instant.now(), "who am I"));
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> Fixtures.count(pool,
                "SELECT count(*) FROM chunk WHERE job_id = $1", ghost) == 1);
        double before = registry.counter("jobmon.logs.lines", "outcome", "unknown_job_dropped").count();
        assertEquals(0L, retention.dropUnknown(Duration.ofHours(1)).await().atMost(WAIT), "still within the grace");
        Thread.sleep(50);
        assertTrue(retention.dropUnknown(Duration.ofMillis(10)).await().atMost(WAIT) >= 1);
        assertEquals(0, Fixtures.count(pool, "SELECT count(*) FROM chunk WHERE job_id = $1", ghost));
        assertTrue(registry.counter("jobmon.logs.lines", "outcome", "unknown_job_dropped").count() >= before + 1);
    }

    @Test
    void emptyDayPartitionsAreDroppedWhole() {
        LocalDate old = LocalDate.now().minusDays(100);
        partitions.ensure(old).await().atMost(WAIT);
        assertTrue(partitions.days().await().atMost(WAIT).contains(old));
        RetentionJob.Expired e = retention.expire(Instant.now()).await().atMost(WAIT);
        assertTrue(e.partitionsDropped().contains(old));
        assertTrue(partitions.days().await().atMost(WAIT).contains(ChunkPartitions.day(Instant.now())), "today's stays");
    }

    @Test
    void compactionMergesFlushedChunksWithoutChangingWhatIsRead() {
        String job = jobWithLines("t1", null, 0 + 1);
        List<String> more = new ArrayList<>();
        for (int round = 0; round < 4; round++) {
            List<String> records = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                records.add(Fixtures.fluentBit(job, job + "-w0", "trainer",
                        Instant.parse("2026-07-13T10:10:00Z").plusMillis(round * 1000L + i), "r" + round + " l" + i));
            }
            Fixtures.sendAll(records);
            int expect = 1 + 50 * (round + 1);
            await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> Fixtures.count(pool,
                    "SELECT coalesce(sum(lines), 0) FROM chunk WHERE job_id = $1", job) == expect);
        }
        List<String> before = given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + job + "/logs?type=user&limit=500")
                .then().extract().jsonPath().getList("items.line", String.class);
        assertTrue(Fixtures.count(pool, "SELECT count(*) FROM chunk WHERE job_id = $1 AND level = 0", job) >= 2);
        compactor.run(Duration.ZERO).await().atMost(WAIT);
        assertEquals(0, Fixtures.count(pool, "SELECT count(*) FROM chunk WHERE job_id = $1 AND level = 0", job));
        assertEquals(1, Fixtures.count(pool, "SELECT count(*) FROM chunk WHERE job_id = $1", job));
        List<String> after = given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + job + "/logs?type=user&limit=500")
                .then().extract().jsonPath().getList("items.line", String.class);
        assertEquals(201, after.size());
        assertEquals(before, after);
    }
}
