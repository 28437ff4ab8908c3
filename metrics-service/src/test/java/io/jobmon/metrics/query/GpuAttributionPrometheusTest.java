package io.jobmon.metrics.query;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.events.MetricSamples;
import io.jobmon.metrics.Fixtures;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.MetricsEngineTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link GpuAttributionTest} (attribution by GPU identity, the guard's evidence metrics, holdings once) with
 * {@code jobmon.metrics.storage=prometheus} against a real Prometheus 2.42 (ADR 0036), and its minute buckets.
 */
@QuarkusTest
// a bean of its own type only: the builtin class it extends stays the one bean of that type
@jakarta.enterprise.inject.Typed(GpuAttributionPrometheusTest.class)
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithTestResource(value = MetricsEngineTestResource.class, initArgs = @ResourceArg(name = "engine", value = "prometheus"))
class GpuAttributionPrometheusTest extends GpuAttributionTest {

    @Test
    void minuteBucketsArePrometheusOwnOverTimeAggregatesOfTheJobsGpus() {
        String job = Fixtures.newId("j");
        String node = Fixtures.newId("n");
        Fixtures.sendJob(Fixtures.job(job, JobStatus.RUNNING, List.of(job + "-0"), List.of(node), 2, T0, null, 1), T0);
        List<MetricSamples.Sample> s = new ArrayList<>();
        for (int g = 0; g < 2; g++) {
            int gpu = g;
            // per minute 10, 20, 30, 40 (+ 100 on GPU 1)
            s.addAll(Fixtures.series("DCGM_FI_DEV_GPU_UTIL", Fixtures.gpu(node, g, job + "-0"), T0, 240,
                    (i, ms) -> 10 * (i % 4 + 1) + 100 * gpu));
        }
        Fixtures.sendSamples(node, s);
        String q = "/api/v1/jobs/" + job + "/metrics?metric=gpu_util&step=60&groupBy=gpu&from=" + T0 + "&to="
                + T0.plus(Duration.ofHours(1));
        await().atMost(WAIT).ignoreExceptions().until(() -> Fixtures.points(get(q, Tokens.alice()), 1) == 60);
        JsonPath avg = get(q, Tokens.alice());
        assertEquals("1m", avg.getString("resolution"));
        assertEquals(25.0, avg.getDouble("series[0].points[0][1]"));
        assertEquals(125.0, avg.getDouble("series[1].points[59][1]"));
        assertEquals(140.0, get(q + "&aggregation=max", Tokens.alice()).getDouble("series[1].points[30][1]"));
        assertEquals(10.0, get(q + "&aggregation=min", Tokens.alice()).getDouble("series[0].points[30][1]"));
    }
}
