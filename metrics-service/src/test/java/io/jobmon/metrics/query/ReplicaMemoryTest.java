package io.jobmon.metrics.query;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.contracts.events.JobStatus;
import io.jobmon.metrics.Fixtures;
import io.jobmon.metrics.store.ChangeNotices;
import io.jobmon.metrics.store.Compactor;
import io.jobmon.metrics.store.HeadRepository;
import io.jobmon.metrics.store.Resolution;
import io.jobmon.metrics.store.codec.Points;
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
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A replica answers a chart shown again from memory, and drops what it kept when another replica changes the job,
 * its access or its samples (changes written straight to PostgreSQL here, as another replica would, so only the
 * database's notices can tell this one). Without notices it reads the database every time.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
class ReplicaMemoryTest {

    static final Instant T0 = Instant.parse("2025-07-01T10:00:00Z");
    /** A notice crosses a local connection in milliseconds; this is the bound a user would notice. */
    static final Duration NOTICE = Duration.ofSeconds(5);

    @Inject
    Pool pool;

    @Inject
    HeadRepository heads;

    @Inject
    ChangeNotices notices;

    @Inject
    Compactor compactor;

    record Job(String id, String node, String query) {
    }

    /**
     * A running job of alice's on one GPU at 40 % for 20 minutes, charted at full resolution; its samples compacted
     * already (so that the scheduled compaction does not change them in the middle of a test).
     */
    Job job() {
        String job = Fixtures.newId("j");
        String node = Fixtures.newId("n");
        Fixtures.sendJob(Fixtures.job(job, JobStatus.RUNNING, List.of(job + "-0"), List.of(node), 1, T0, null, 1), T0);
        Fixtures.sendSamples(node, Fixtures.series("DCGM_FI_DEV_GPU_UTIL", Fixtures.gpu(node, 0, job + "-0"), T0, 80,
                (i, ms) -> 40));
        String q = "metric=gpu_util&step=15&from=" + T0 + "&to=" + T0.plus(Duration.ofMinutes(30));
        await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
                .until(() -> Fixtures.points(JobChartsTest.chart(job, q), 0) == 80);
        compact();
        return new Job(job, node, q);
    }

    @Test
    void aChartShownAgainComesFromMemoryAndAnotherReplicasNewSamplesReachItByNotice() {
        Job j = job();
        awaitFromMemory(j);
        assertEquals(80, Fixtures.points(JobChartsTest.chart(j.id(), j.query()), 0));

        // another replica stores two late samples of the job's GPU: a new point after the last, and a correction
        long series = pool.preparedQuery("SELECT id FROM series WHERE node = $1 AND metric = 'DCGM_FI_DEV_GPU_UTIL'")
                .execute(Tuple.of(j.node())).await().indefinitely().iterator().next().getLong("id");
        long late = T0.plus(Duration.ofMinutes(25)).toEpochMilli();
        Points p = new Points(2);
        p.add(T0.toEpochMilli(), 90);
        p.add(late, 70);
        HeadRepository.Block block = HeadRepository.Block.of(j.node(), Resolution.window(late), Map.of(series, p));
        pool.withTransaction(c -> heads.insert(c, List.of(block))).await().indefinitely();

        await().atMost(NOTICE).until(() -> Fixtures.points(JobChartsTest.chart(j.id(), j.query()), 0) == 81);
        JsonPath changed = JobChartsTest.chart(j.id(), j.query());
        assertEquals(90.0, JobChartsTest.value(changed, 0, 0), "the later sample of a timestamp wins");
        assertEquals(70.0, JobChartsTest.value(changed, 0, 80));
        compact();
        assertEquals(81, Fixtures.points(JobChartsTest.chart(j.id(), j.query()), 0), "the same after compaction");
        awaitFromMemory(j);
        assertEquals(70.0, JobChartsTest.value(JobChartsTest.chart(j.id(), j.query()), 0, 80), "and from memory");
    }

    /**
     * Shows the chart until a showing is answered from memory: the notice of a compaction this replica made comes
     * back a moment after it (the replica knew at once), and costs one more read.
     */
    static void awaitFromMemory(Job j) {
        await().atMost(NOTICE).until(() -> {
            double memory = reads("memory");
            JobChartsTest.chart(j.id(), j.query());
            return reads("memory") == memory + 1;
        });
    }

    void compact() {
        compactor.compactAll(System.currentTimeMillis()).await().atMost(Duration.ofSeconds(30));
    }

    @Test
    void accessTakenAwayByAnotherReplicaEndsAtOnceEvenForAChartKeptInMemory() {
        Job j = job();
        JobChartsTest.chart(j.id(), j.query());
        JobChartsTest.chart(j.id(), j.query());
        pool.preparedQuery("UPDATE job_access SET owner = 'mallory', version = version + 1 WHERE job_id = $1")
                .execute(Tuple.of(j.id())).await().indefinitely();
        await().atMost(NOTICE).until(() -> chartStatus(j) == 404);
        assertEquals(404, chartStatus(j));
    }

    @Test
    void whileTheNoticesAreNotHeardEveryChartReadsTheDatabaseAndMemoryServesAgainOnceTheyAre() {
        Job j = job();
        JobChartsTest.chart(j.id(), j.query());
        JobChartsTest.chart(j.id(), j.query());
        await().atMost(NOTICE).until(notices::listening);
        // the connection that listens is cut; a change made meanwhile is never announced to this replica
        pool.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%'"
                + " AND pid <> pg_backend_pid()").execute().await().indefinitely();
        await().atMost(NOTICE).until(() -> !notices.listening());
        pool.preparedQuery("UPDATE job_access SET owner = 'mallory', version = version + 1 WHERE job_id = $1")
                .execute(Tuple.of(j.id())).await().indefinitely();
        assertEquals(404, chartStatus(j), "the very next chart: nothing kept from before is trusted");

        pool.preparedQuery("UPDATE job_access SET owner = 'alice', version = version + 1 WHERE job_id = $1")
                .execute(Tuple.of(j.id())).await().indefinitely();
        await().atMost(NOTICE).until(notices::listening);
        assertEquals(200, chartStatus(j));
        awaitFromMemory(j); // listening again, a chart shown again comes from memory
    }

    static int chartStatus(Job j) {
        return given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + j.id() + "/metrics?" + j.query())
                .then().extract().statusCode();
    }

    /** This replica's count of block reads answered from {@code where}. */
    static double reads(String where) {
        String text = given().get(Fixtures.management("/q/metrics")).then().statusCode(200).extract().asString();
        Matcher m = Pattern.compile("(?m)^jobmon_metrics_block_reads_total\\{[^}]*from=\"" + where + "\"[^}]*\\} (\\S+)$")
                .matcher(text);
        assertTrue(m.find(), "jobmon_metrics_block_reads_total{from=" + where + "} on /q/metrics");
        return Double.parseDouble(m.group(1));
    }
}
