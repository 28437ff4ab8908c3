package io.jobmon.metrics.remotewrite;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.events.MetricSamplesBinary;
import io.jobmon.contracts.events.Topics;
import io.jobmon.metrics.Fixtures;
import io.jobmon.metrics.ingest.SeriesBuilder;
import io.jobmon.metrics.remotewrite.prompb.Types;
import io.jobmon.testsupport.KafkaTestClient;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** Remote-write with real snappy + protobuf bytes → Kafka → store → chart; the DLQ of the samples topic. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
class IntakeTest {

    static final Instant T0 = Instant.parse("2025-07-01T08:00:00Z");

    static String service() {
        return Tokens.user("prometheus").roles("metrics-writer").get();
    }

    @Test
    void remoteWrittenSamplesBecomeTheJobsChart() {
        String job = Fixtures.newId("j");
        String node = Fixtures.newId("n");
        Fixtures.sendJob(Fixtures.job(job, JobStatus.RUNNING, List.of(job + "-0"), List.of(node), 2, T0, null, 1), T0);
        List<Types.TimeSeries> series = new ArrayList<>();
        for (int g = 0; g < 2; g++) {
            int gpu = g;
            series.add(RemoteWriteBodies.series("DCGM_FI_DEV_FB_USED", Fixtures.gpu(node, g, job + "-0"),
                    T0.toEpochMilli(), 240, 15_000, i -> 1000 * (gpu + 1) + i));
        }
        given().auth().oauth2(service()).contentType("application/x-protobuf").header("Content-Encoding", "snappy")
                .header("X-Prometheus-Remote-Write-Version", "0.1.0").body(RemoteWriteBodies.body(series))
                .post("/api/v1/write").then().statusCode(204);
        String q = "/api/v1/jobs/" + job + "/metrics?metric=gpu_mem_used&aggregation=sum&from=" + T0 + "&to="
                + T0.plus(Duration.ofHours(1));
        await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> Fixtures.points(given().auth().oauth2(Tokens.alice()).get(q).then()
                .extract().jsonPath(), 0) == 240);
        var chart = given().auth().oauth2(Tokens.alice()).get(q).then().statusCode(200).extract().jsonPath();
        assertEquals(3000.0, chart.getDouble("series[0].points[0][1]"));
        assertEquals("MiB", chart.getString("series[0].unit"));
        given().get(Fixtures.management("/q/metrics")).then().body(containsString("jobmon_metrics_samples_total{source=\"remote_write\"} 480.0"));
    }

    @Test
    void remoteWriteIsForServicesAndRefusesWhatIsNotAVersionOneBody() {
        byte[] body = RemoteWriteBodies.body(List.of());
        given().auth().oauth2(Tokens.alice()).contentType("application/x-protobuf").body(body).post("/api/v1/write")
                .then().statusCode(403).contentType("application/problem+json");
        given().auth().oauth2(Tokens.admin()).contentType("application/x-protobuf").body(body).post("/api/v1/write")
                .then().statusCode(403);
        given().contentType("application/x-protobuf").body(body).post("/api/v1/write").then().statusCode(401);
        given().auth().oauth2(service()).contentType("application/x-protobuf").body("not snappy".getBytes())
                .post("/api/v1/write").then().statusCode(400).contentType("application/problem+json")
                .body(containsString("snappy"));
        given().auth().oauth2(service()).contentType("application/x-protobuf;proto=io.prometheus.write.v2.Request")
                .body(body).post("/api/v1/write").then().statusCode(415).contentType("application/problem+json");
        given().auth().oauth2(service()).contentType("application/x-protobuf").body(body).post("/api/v1/write")
                .then().statusCode(204);
    }

    @Test
    void anInvalidSamplesRecordGoesToTheDlqWithTheReasonAndTheNextOneIsStored() {
        String node = Fixtures.newId("n");
        String job = Fixtures.newId("j");
        KafkaTestClient.send(Topics.METRICS_SAMPLES, node, "not json " + node);
        KafkaTestClient.send(Topics.METRICS_SAMPLES, node, "{\"specversion\":\"1.0\",\"id\":\"" + node
                + "\",\"type\":\"io.jobmon.metrics.samples.v1\",\"data\":{\"node\":\"" + node
                + "\",\"samples\":[{\"labels\":{}}]}}");
        // a binary record cut short, and one of a version this consumer does not know
        byte[] binary = MetricSamplesBinary.encode(node, SeriesBuilder.of(Fixtures.series("DCGM_FI_DEV_GPU_UTIL",
                Fixtures.gpu(node, 0, job + "-0"), T0, 4, (i, ms) -> 1)));
        byte[] v9 = binary.clone();
        v9[4] = 9;
        Fixtures.sendBytes(Topics.METRICS_SAMPLES, List.of(Map.entry(node, Arrays.copyOf(binary, binary.length - 5)),
                Map.entry(node, v9)));
        Fixtures.sendJob(Fixtures.job(job, JobStatus.RUNNING, List.of(job + "-0"), List.of(node), 1, T0, null, 1), T0);
        Fixtures.sendSamples(node, Fixtures.series("DCGM_FI_DEV_GPU_UTIL", Fixtures.gpu(node, 0, job + "-0"), T0, 4, (i, ms) -> 77));
        List<ConsumerRecord<String, String>> dead = KafkaTestClient.await(Topics.dlq(Topics.METRICS_SAMPLES),
                r -> node.equals(r.key()), 4, Duration.ofSeconds(30));
        assertEquals(4, dead.size());
        assertEquals(true, reason(dead.get(0)).contains("not JSON"), reason(dead.get(0)));
        assertEquals(true, reason(dead.get(1)).contains("samples[0]"), reason(dead.get(1)));
        assertEquals(true, reason(dead.get(2)).contains("truncated"), reason(dead.get(2)));
        assertEquals(true, reason(dead.get(3)).contains("version 9 is not supported"), reason(dead.get(3)));
        String q = "/api/v1/jobs/" + job + "/metrics?from=" + T0 + "&to=" + T0.plus(Duration.ofMinutes(5));
        await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> Fixtures.points(given().auth().oauth2(Tokens.alice()).get(q).then()
                .extract().jsonPath(), 0) == 4);
        var chart = given().auth().oauth2(Tokens.alice()).get(q).then().statusCode(200).extract().jsonPath();
        assertEquals(77.0, chart.getDouble("series[0].points[0][1]"));
    }

    static String reason(ConsumerRecord<String, String> dead) {
        return new String(dead.headers().lastHeader("dead-letter-reason").value(), StandardCharsets.UTF_8);
    }

    @Test
    void recordsOfTheJsonSeriesFormStillOnTheTopicAreStored() {
        String node = Fixtures.newId("n");
        String job = Fixtures.newId("j");
        Fixtures.sendJob(Fixtures.job(job, JobStatus.RUNNING, List.of(job + "-0"), List.of(node), 1, T0, null, 1), T0);
        // written as producers did before the binary form: a JSON CloudEvent, labels once per series
        Fixtures.sendSamplesJson(node, Fixtures.series("DCGM_FI_DEV_GPU_UTIL", Fixtures.gpu(node, 0, job + "-0"), T0, 6,
                (i, ms) -> 40 + i));
        String q = "/api/v1/jobs/" + job + "/metrics?metric=gpu_util&from=" + T0 + "&to=" + T0.plus(Duration.ofMinutes(5));
        await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> Fixtures.points(given().auth().oauth2(Tokens.alice()).get(q).then()
                .extract().jsonPath(), 0) == 6);
        var chart = given().auth().oauth2(Tokens.alice()).get(q).then().statusCode(200).extract().jsonPath();
        assertEquals(40.0, chart.getDouble("series[0].points[0][1]"));
        assertEquals(45.0, chart.getDouble("series[0].points[5][1]"));
    }

    @Test
    void recordsOfTheEventsFirstFormStillOnTheTopicAreStoredAndAnUnevenSeriesIsDeadLettered() {
        String node = Fixtures.newId("n");
        String job = Fixtures.newId("j");
        Fixtures.sendJob(Fixtures.job(job, JobStatus.RUNNING, List.of(job + "-0"), List.of(node), 1, T0, null, 1), T0);
        KafkaTestClient.send(Topics.METRICS_SAMPLES, node, "{\"specversion\":\"1.0\",\"id\":\"" + node
                + "\",\"type\":\"io.jobmon.metrics.samples.v1\",\"data\":{\"node\":\"" + node
                + "\",\"series\":[{\"name\":\"up\",\"timestampsMs\":[" + T0.toEpochMilli() + ",1],\"values\":[1]}]}}");
        // written as producers did before the series form: an object per sample, labels repeated
        Fixtures.sendSamplesFirstForm(node, Fixtures.series("DCGM_FI_DEV_GPU_UTIL", Fixtures.gpu(node, 0, job + "-0"), T0, 6,
                (i, ms) -> 60 + i));
        List<ConsumerRecord<String, String>> dead = KafkaTestClient.await(Topics.dlq(Topics.METRICS_SAMPLES),
                r -> node.equals(r.key()), 1, Duration.ofSeconds(30));
        assertEquals(true, reason(dead.get(0)).contains("series[0] has 2 timestamps and 1 values"), reason(dead.get(0)));
        String q = "/api/v1/jobs/" + job + "/metrics?metric=gpu_util&from=" + T0 + "&to=" + T0.plus(Duration.ofMinutes(5));
        await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> Fixtures.points(given().auth().oauth2(Tokens.alice()).get(q).then()
                .extract().jsonPath(), 0) == 6);
        var chart = given().auth().oauth2(Tokens.alice()).get(q).then().statusCode(200).extract().jsonPath();
        assertEquals(60.0, chart.getDouble("series[0].points[0][1]"));
        assertEquals(65.0, chart.getDouble("series[0].points[5][1]"));
    }
}
