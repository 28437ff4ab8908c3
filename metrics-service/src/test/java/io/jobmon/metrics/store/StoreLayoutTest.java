package io.jobmon.metrics.store;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.MetricSamples;
import io.jobmon.metrics.Fixtures;
import io.jobmon.metrics.Sql;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What the builtin store keeps per series (ADR 0042), on real PostgreSQL and Kafka. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
class StoreLayoutTest {

    static final Instant T0 = Instant.parse("2025-07-01T10:00:00Z");
    static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    Pool pool;

    @Inject
    PgSeriesStore store;

    @Test
    void theMetricsOfAGpuShareOneLabelSetAndEachSeriesStillReadsItsOwnLabels() {
        String node = Fixtures.newId("n");
        Map<String, String> gpu0 = Fixtures.gpu(node, 0, "p-0");
        Map<String, String> gpu1 = Fixtures.gpu(node, 1, "p-1");
        List<MetricSamples.Sample> samples = new ArrayList<>();
        for (String metric : List.of("DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_FB_USED", "DCGM_FI_DEV_POWER_USAGE")) {
            samples.addAll(Fixtures.series(metric, gpu0, T0, 4, (i, ms) -> i));
            samples.addAll(Fixtures.series(metric, gpu1, T0, 4, (i, ms) -> i));
        }
        Fixtures.sendSamples(node, samples);
        await().atMost(WAIT).until(() -> Sql.count(pool, "SELECT count(*) FROM series WHERE node = $1", node) == 6);
        assertEquals(2, Sql.count(pool, "SELECT count(DISTINCT label_set_id) FROM series WHERE node = $1", node));
        Set<Map<String, String>> stored = new java.util.HashSet<>();
        pool.preparedQuery("SELECT l.labels::text AS l FROM label_set l WHERE l.id IN (SELECT label_set_id FROM series"
                + " WHERE node = $1)").execute(Tuple.of(node)).await().atMost(WAIT)
                .forEach(r -> stored.add(labels(r.getString("l"))));
        assertEquals(Set.of(gpu0, gpu1), stored);
        List<SeriesRef> refs = store.onNodes(List.of(node), List.of("DCGM_FI_DEV_FB_USED")).await().atMost(WAIT);
        assertEquals(2, refs.size());
        for (SeriesRef r : refs) {
            assertEquals("0".equals(r.gpu()) ? gpu0 : gpu1, r.labels());
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, String> labels(String json) {
        try {
            return CloudEvents.MAPPER.readValue(json, Map.class);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
