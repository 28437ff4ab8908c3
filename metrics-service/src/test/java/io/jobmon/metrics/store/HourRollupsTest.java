package io.jobmon.metrics.store;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.events.MetricSamples;
import io.jobmon.metrics.Fixtures;
import io.jobmon.metrics.Sql;
import io.jobmon.metrics.store.codec.Rollups;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import io.restassured.path.json.JsonPath;
import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * 1-hour rollups read from the 1-minute ones while a day keeps them, written to {@code rollup_1h} when the day leaves
 * them (ADR 0050): the charts at a 1-hour step are the same from the head, from the 1-minute rollups and from the
 * 1-hour rows; 1-hour rows of the layout before are read alongside and merged. Real PostgreSQL and Kafka.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@TestProfile(HourRollupsTest.CompactedByTheTest.class)
class HourRollupsTest {

    /** The head stays as written until the test compacts it (no scheduled compaction nor any other round). */
    public static class CompactedByTheTest implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.scheduler.enabled", "false");
        }
    }

    static final Instant T0 = Instant.parse("2025-05-03T10:00:00Z");
    static final long DAY = T0.toEpochMilli() / Resolution.DAY_MS * Resolution.DAY_MS;
    static final long H = 3_600_000L;
    static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    Pool pool;

    @Inject
    Compactor compactor;

    @Inject
    HourRollups hours;

    @Inject
    DecodedCache cache;

    static JsonPath chart(String job, String query) {
        return given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + job + "/metrics?" + query)
                .then().statusCode(200).extract().jsonPath();
    }

    /** A job on its own node with a counter and a gauge for 4 hours (two windows), charted at a 1-hour step. */
    private String[] stream() {
        String job = Fixtures.newId("j");
        String node = Fixtures.newId("n");
        Fixtures.sendJob(Fixtures.job(job, JobStatus.RUNNING, List.of(job + "-0"), List.of(node), 1, T0, null, 1), T0);
        List<MetricSamples.Sample> s = new ArrayList<>();
        // a counter that restarts from zero, a gauge that moves
        s.addAll(Fixtures.series("node_network_receive_bytes_total", Fixtures.labels("device", "eth0"), T0, 960,
                (i, ms) -> i < 300 ? 1_000_000 + 1500.0 * i : 3000.0 * (i - 299)));
        s.addAll(Fixtures.series("DCGM_FI_DEV_GPU_UTIL", Fixtures.gpu(node, 0, job + "-0"), T0, 960,
                (i, ms) -> (i * 7) % 101));
        s.addAll(Fixtures.series("DCGM_FI_DEV_FB_USED", Fixtures.gpu(node, 0, job + "-0"), T0, 960, (i, ms) -> 1000 + i));
        Fixtures.sendSamples(node, s);
        return new String[] {job, node};
    }

    private List<Object> series(String job, String query) {
        return chart(job, query).getList("series");
    }

    private long rows(String table, String node) {
        return Sql.count(pool, "SELECT count(*) FROM " + table + " WHERE series_id IN (SELECT id FROM series WHERE"
                + " node = $1)", node);
    }

    @Test
    void hourChartsAreTheSameFromTheHeadFromTheMinuteRollupsAndFromTheHourRowsWrittenWhenTheDayLeaves() {
        String[] jn = stream();
        String job = jn[0];
        String node = jn[1];
        String range = "from=" + T0 + "&to=" + T0.plus(Duration.ofHours(4));
        List<String> queries = List.of("metric=net_rx&metric=gpu_util&step=3600&" + range,
                "metric=gpu_util&step=3600&aggregation=max&" + range, "metric=gpu_util&step=3600&aggregation=min&" + range);
        await().atMost(WAIT).ignoreExceptions().until(() -> chart(job, queries.get(0)).getList("series").size() == 2
                && Fixtures.points(chart(job, queries.get(0)), 1) == 4 && Sql.count(pool,
                        "SELECT count(*) FROM head_window WHERE node = $1", node) == 2);
        assertEquals("1h", chart(job, queries.get(0)).getString("resolution"));
        List<List<Object>> fromHead = new ArrayList<>();
        queries.forEach(q -> fromHead.add(series(job, q)));
        String minutes = "metric=net_rx&metric=gpu_util&step=60&" + range;
        List<Object> minutesFromHead = series(job, minutes);

        compactor.compactAll(T0.plus(Duration.ofDays(1)).toEpochMilli()).await().atMost(WAIT);
        assertEquals(3, rows("rollup_1m", node), "one 1-minute chunk per series and day");
        // the newest sample kept for the counter and the GPUs-present metric only; the day of it for every series
        assertEquals(2, rows("series_last", node));
        assertEquals(3, Sql.count(pool, "SELECT count(*) FROM series WHERE node = $1 AND last_day = $2", node, DAY));
        assertEquals(0, rows("rollup_1h", node), "no 1-hour rows while the day keeps its 1-minute rollups");
        // both windows in one compaction transaction: the day's chunk written once, with both windows' buckets
        assertEquals(minutesFromHead, series(job, minutes));
        assertEquals(240, Fixtures.points(chart(job, minutes), 1));
        for (int q = 0; q < queries.size(); q++) {
            assertEquals(fromHead.get(q), series(job, queries.get(q)), queries.get(q));
        }

        assertEquals(1, hours.fromMinutes(DAY, DAY + Resolution.DAY_MS).await().atMost(WAIT));
        assertEquals(3, rows("rollup_1h", node));
        // the day's 1-minute partition dropped (retention), what this replica decoded forgotten (its 'all' notice)
        pool.preparedQuery("DELETE FROM rollup_1m WHERE series_id IN (SELECT id FROM series WHERE node = $1)")
                .execute(Tuple.of(node)).await().atMost(WAIT);
        cache.clear();
        for (int q = 0; q < queries.size(); q++) {
            assertEquals(fromHead.get(q), series(job, queries.get(q)), queries.get(q));
        }
    }

    @Test
    void hourRowsOfTheLayoutBeforeAreReadAlongsideTheMinutesWhichWinAndAreMergedWhenTheDayLeaves() {
        String[] jn = stream();
        String job = jn[0];
        String node = jn[1];
        String q = "metric=gpu_util&step=3600&aggregation=max&from=" + T0.minus(Duration.ofHours(1)) + "&to="
                + T0.plus(Duration.ofHours(4));
        await().atMost(WAIT).ignoreExceptions().until(() -> Fixtures.points(chart(job, q), 0) == 4
                && Sql.count(pool, "SELECT count(*) FROM head_window WHERE node = $1", node) == 2);
        List<Object> fromHead = chart(job, q).getList("series[0].points");
        compactor.compactAll(T0.plus(Duration.ofDays(1)).toEpochMilli()).await().atMost(WAIT);
        long id = Sql.count(pool, "SELECT id FROM series WHERE node = $1 AND metric = 'DCGM_FI_DEV_GPU_UTIL'", node);
        // as a version before wrote it: the day's 1-hour chunk, here with an hour before the stream and a stale first hour
        Rollups old = new Rollups(2);
        old.add(T0.toEpochMilli() - H, 7, 7, 7, 1, 7, Double.NaN);
        old.add(T0.toEpochMilli(), 1, 1, 1, 1, 1, Double.NaN);
        pool.preparedQuery("INSERT INTO rollup_1h (series_id, start_ms, points, body) VALUES ($1, $2, 2, $3)")
                .execute(Tuple.of(id, DAY, Buffer.buffer(old.encode()))).await().atMost(WAIT);
        cache.clear();
        JsonPath read = chart(job, q);
        assertEquals(5, Fixtures.points(read, 0));
        assertEquals(7.0, read.getDouble("series[0].points[0][1]"), "the hour only the old row has");
        assertEquals(fromHead, read.getList("series[0].points").subList(1, 5), "the 1-minute rollups win");

        hours.fromMinutes(DAY, DAY + Resolution.DAY_MS).await().atMost(WAIT);
        Rollups merged = Rollups.decode(pool.preparedQuery("SELECT body FROM rollup_1h WHERE series_id = $1")
                .execute(Tuple.of(id)).await().atMost(WAIT).iterator().next().getBuffer("body").getBytes());
        assertEquals(5, merged.n);
        assertEquals(T0.toEpochMilli() - H, merged.t[0]);
        assertEquals(7.0, merged.max[0]);
        pool.preparedQuery("DELETE FROM rollup_1m WHERE series_id = $1").execute(Tuple.of(id)).await().atMost(WAIT);
        cache.clear();
        assertEquals(read.getList("series[0].points"), chart(job, q).getList("series[0].points"));
    }
}
