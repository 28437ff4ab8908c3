package io.jobmon.metrics.scrape;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.metrics.Fixtures;
import io.jobmon.metrics.Sql;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Scraping real dcgm-exporter and node_exporter output over HTTP → Kafka → store → a job's chart; scrape health;
 * leases between replicas; discovery of exporter pods on the Kubernetes mock API server.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithKubernetesTestServer
@TestProfile(ScrapeProfile.class)
class ScrapeTest {

    static final String POD = "llama-sft-7f9c-worker-0";

    @Inject
    ScrapeManager manager;
    @Inject
    KubernetesDiscovery discovery;
    @Inject
    Pool pool;
    @KubernetesTestServer
    KubernetesServer k8s;

    Map<String, Scraper.Result> round() {
        return manager.round().await().atMost(Duration.ofSeconds(30)).stream()
                .collect(Collectors.toMap(r -> r.target().id(), r -> r));
    }

    @Test
    void scrapedDcgmOutputBecomesTheChartOfTheJobWhosePodItLabelsAndXidIsAnEvent() {
        String job = Fixtures.newId("j");
        Instant started = Instant.now().minus(Duration.ofMinutes(10));
        Fixtures.sendJob(Fixtures.job(job, JobStatus.RUNNING, List.of(POD), List.of("gpu-node-07"), 4, started, null, 1),
                started);
        Map<String, Scraper.Result> results = round();
        Scraper.Result dcgm = results.get("dcgm");
        assertTrue(dcgm.up());
        assertEquals(27 * 8, dcgm.samples().size());
        assertEquals("dcgm-exporter", dcgm.samples().get(0).labels().get("job"));
        assertEquals("c1", dcgm.samples().get(0).labels().get("cluster"));
        assertTrue(results.get("node").up());
        assertTrue(results.get("node").samples().size() > 2500);
        assertEquals(42, results.get("om").samples().get(0).value(), "OpenMetrics by its content type");
        assertFalse(results.get("broken").up());
        await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> given().auth().oauth2(Tokens.alice())
                .get("/api/v1/jobs/" + job + "/metrics?metric=gpu_util&metric=mem_used").then().extract().jsonPath()
                .getList("series").size() == 2);
        var chart = given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + job + "/metrics?metric=gpu_util&groupBy=pod")
                .then().statusCode(200).extract().jsonPath();
        assertEquals(Map.of("pod", POD), chart.getMap("series[0].group"));
        List<List<Object>> points = chart.getList("series[0].points");
        assertEquals(96.5, ((Number) points.get(points.size() - 1).get(1)).doubleValue(), "GPUs 0-3 hold the pod");
        await().atMost(Duration.ofSeconds(30)).until(() -> Sql.count(pool,
                "SELECT count(*) FROM xid_event WHERE node = 'gpu-node-07' AND gpu = '5' AND code = 79") == 1);
    }

    @Test
    void scrapeHealthIsOnTheMetricsEndpointAndInTheAdminApi() {
        round();
        given().get(Fixtures.management("/q/metrics")).then().statusCode(200)
                .body(containsString("jobmon_scrape_up{target=\"dcgm\"} 1.0"))
                .body(containsString("jobmon_scrape_up{target=\"broken\"} 0.0"))
                .body(containsString("jobmon_scrape_samples{target=\"dcgm\"} 216.0"))
                .body(containsString("jobmon_scrape_duration_seconds{target=\"node\"}"))
                .body(containsString("jobmon_metrics_samples_total{source=\"scrape\"}"));
        var targets = given().auth().oauth2(Tokens.admin()).get("/api/v1/metrics/targets").then().statusCode(200)
                .extract().jsonPath();
        int broken = targets.getList("items.id").indexOf("broken");
        assertEquals(false, targets.getBoolean("items[" + broken + "].up"));
        assertTrue(targets.getString("items[" + broken + "].error").contains("line 1"),
                targets.getString("items[" + broken + "].error"));
        assertEquals(manager.holder(), targets.getString("items[" + targets.getList("items.id").indexOf("dcgm")
                + "].scrapedBy"));
        given().auth().oauth2(Tokens.alice()).get("/api/v1/metrics/targets").then().statusCode(403)
                .contentType("application/problem+json");
    }

    @Test
    void aTargetAnotherReplicaHoldsIsNotScrapedHereUntilItsLeaseExpires() {
        round();
        pool.preparedQuery("UPDATE lease SET holder = 'other-replica', expires_at = now() + interval '1 minute'"
                + " WHERE name = 'scrape:node'").execute().await().indefinitely();
        assertFalse(round().containsKey("node"), "held by another replica");
        assertFalse(manager.held().contains("scrape:node"));
        pool.preparedQuery("UPDATE lease SET expires_at = now() - interval '1 second' WHERE name = $1")
                .execute(Tuple.of("scrape:node")).await().indefinitely();
        assertTrue(round().containsKey("node"), "taken over once the other replica stopped renewing");
    }

    static Pod exporter(String name, String appLabel, String phase, String node) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("gpu-operator")
                .addToLabels(appLabel.split("=")[0], appLabel.split("=")[1]).addToLabels("jobmon.io/pool", "gpu-a100")
                .endMetadata().withNewSpec().withNodeName(node).endSpec()
                .withNewStatus().withPhase(phase).withPodIP("127.0.0.1").endStatus().build();
    }

    @Test
    void discoveryTurnsRunningExporterPodsIntoTargetsOnTheirNodesAndForgetsDeletedOnes() {
        var client = k8s.getClient();
        client.pods().inNamespace("gpu-operator").resource(exporter("dcgm-a", "app=nvidia-dcgm-exporter", "Running", "gpu-node-11")).create();
        client.pods().inNamespace("gpu-operator").resource(exporter("ne-a", "app.kubernetes.io/name=prometheus-node-exporter",
                "Running", "gpu-node-11")).create();
        client.pods().inNamespace("gpu-operator").resource(exporter("dcgm-b", "app=nvidia-dcgm-exporter", "Pending", "gpu-node-12")).create();
        Map<String, List<ScrapeTarget>> found = discovery.discoverAll().await().atMost(Duration.ofSeconds(30));
        List<ScrapeTarget> mock = found.get("mock");
        assertEquals(2, mock.size(), "the pending pod has no endpoint yet");
        ScrapeTarget dcgm = mock.stream().filter(t -> t.job().equals("dcgm-exporter")).findFirst().orElseThrow();
        assertEquals("http://127.0.0.1:9400/metrics", dcgm.url());
        assertEquals("gpu-node-11", dcgm.node());
        assertEquals("gpu-a100", dcgm.pool());
        assertEquals(2, Sql.count(pool, "SELECT count(*) FROM scrape_target WHERE source = 'k8s:mock'"));
        client.pods().inNamespace("gpu-operator").withName("ne-a").delete();
        discovery.discoverAll().await().atMost(Duration.ofSeconds(30));
        assertEquals(1, Sql.count(pool, "SELECT count(*) FROM scrape_target WHERE source = 'k8s:mock'"));
        client.pods().inNamespace("gpu-operator").withName("dcgm-a").delete();
        client.pods().inNamespace("gpu-operator").withName("dcgm-b").delete();
        discovery.discoverAll().await().atMost(Duration.ofSeconds(30));
    }
}
