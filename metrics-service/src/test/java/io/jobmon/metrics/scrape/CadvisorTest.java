package io.jobmon.metrics.scrape;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.api.model.NodeBuilder;
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
import io.restassured.path.json.JsonPath;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * A node's kubelet cAdvisor, found on the mock API server and scraped through its node proxy → Kafka → store → the
 * charts of two jobs sharing the node, each with only its own containers; the kubelet scraped directly with the
 * ServiceAccount token.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithKubernetesTestServer
@TestProfile(CadvisorProfile.class)
class CadvisorTest {

    static final Duration WAIT = Duration.ofSeconds(30);
    static final List<String> AUTHORIZATIONS = new CopyOnWriteArrayList<>();
    static HttpServer kubelet;

    @Inject
    ScrapeManager manager;
    @Inject
    KubernetesDiscovery discovery;
    @Inject
    Scraper scraper;
    @Inject
    Pool pool;
    @KubernetesTestServer
    KubernetesServer k8s;

    @AfterAll
    static void stop() {
        if (kubelet != null) {
            kubelet.stop(0);
        }
    }

    /** A kubelet's port serving {@code body}, answering 401 without the ServiceAccount token. */
    static synchronized int kubeletPort(String body) throws IOException {
        if (kubelet == null) {
            kubelet = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            kubelet.createContext("/metrics/cadvisor", ex -> {
                String auth = ex.getRequestHeaders().getFirst("Authorization");
                AUTHORIZATIONS.add(String.valueOf(auth));
                boolean ok = ("Bearer " + CadvisorProfile.TOKEN).equals(auth);
                ex.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
                ex.sendResponseHeaders(ok ? 200 : 401, ok ? bytes.length : -1);
                if (ok) {
                    ex.getResponseBody().write(bytes);
                }
                ex.close();
            });
            kubelet.start();
        }
        return kubelet.getAddress().getPort();
    }

    static JsonPath chart(String job, String query) {
        return given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + job + "/metrics?" + query).then()
                .statusCode(200).extract().jsonPath();
    }

    static double last(JsonPath chart, int line) {
        List<List<Object>> points = chart.getList("series[" + line + "].points");
        return ((Number) points.get(points.size() - 1).get(1)).doubleValue();
    }

    @Test
    void twoJobsSharingANodeEachChartOnlyTheirContainersFromTheKubeletsCadvisor() throws IOException {
        String a = Fixtures.newId("ja");
        String b = Fixtures.newId("jb");
        String podA = a + "-0";
        String podB = b + "-0";
        String node = Fixtures.newId("cad-node");
        Instant t0 = Instant.now().truncatedTo(ChronoUnit.MINUTES).minus(Duration.ofMinutes(2));
        Fixtures.sendJob(Fixtures.job(a, JobStatus.RUNNING, List.of(podA), List.of(node), 1, t0.minusSeconds(60), null, 1), t0);
        Fixtures.sendJob(Fixtures.job(b, JobStatus.RUNNING, List.of(podB), List.of(node), 1, t0.minusSeconds(60), null, 1), t0);
        int port = kubeletPort(CadvisorBodies.body(podA, podB, 0, t0.toEpochMilli()));
        k8s.getClient().nodes().resource(new NodeBuilder().withNewMetadata().withName(node)
                .addToLabels("sim.jobmon.io/pool", "a100-pool").endMetadata().withNewStatus().addNewAddress()
                .withType("InternalIP").withAddress("127.0.0.1").endAddress().withNewDaemonEndpoints()
                .withNewKubeletEndpoint().withPort(port).endKubeletEndpoint().endDaemonEndpoints().endStatus().build())
                .create();
        String path = "/api/v1/nodes/" + node + "/proxy/metrics/cadvisor";
        for (int i = 0; i < 4; i++) {
            k8s.expect().get().withPath(path).andReturn(200, CadvisorBodies.body(podA, podB, i,
                    t0.plusSeconds(15L * i).toEpochMilli())).once();
        }

        // a dcgm-exporter pod on the node without the pool label (the GPU Operator's pods have none)
        k8s.getClient().pods().inNamespace("gpu-operator").resource(new PodBuilder().withNewMetadata()
                .withName("dcgm-" + node).addToLabels("app", "nvidia-dcgm-exporter").endMetadata().withNewSpec()
                .withNodeName(node).endSpec().withNewStatus().withPhase("Running").withPodIP("127.0.0.1").endStatus()
                .build()).create();

        Map<String, List<ScrapeTarget>> found = discovery.discoverAll().await().atMost(WAIT);
        ScrapeTarget proxied = found.get("mock").stream().filter(t -> t.node().equals(node)
                && t.job().equals(Cadvisor.JOB)).findFirst().orElseThrow();
        assertTrue(proxied.url().endsWith(path), proxied.url());
        assertEquals("a100-pool", proxied.pool(), "the node's pool label");
        assertEquals("a100-pool", found.get("mock").stream().filter(t -> t.node().equals(node)
                && t.job().equals("dcgm-exporter")).findFirst().orElseThrow().pool(), "the exporter's node's pool");
        for (int i = 0; i < 4; i++) {
            Scraper.Result r = manager.scrapeAndPublish(proxied).await().atMost(WAIT);
            assertTrue(r.up(), r.error());
        }

        String range = "&step=15s&from=" + t0 + "&to=" + t0.plusSeconds(60);
        await().atMost(WAIT).ignoreExceptions().until(() -> Fixtures.points(chart(a,
                "metric=container_mem_working_set&groupBy=container" + range), 0) == 4);
        JsonPath mem = chart(a, "metric=container_mem_working_set&groupBy=container" + range);
        assertEquals(List.of(Map.of("pod", podA, "container", "main"), Map.of("pod", podA, "container", "sidecar")),
                mem.getList("series.group"), "a-0's containers: not the pause container, not the pod's cgroup");
        assertEquals(List.of(1.0, 2.0, 3.0, 4.0), mem.getList("series[0].points.collect { it[1] / 1073741824 }", Number.class)
                .stream().map(Number::doubleValue).toList(),
                "a point per scrape, rising to the limit");
        assertEquals("labels", mem.getString("series[0].attribution"));
        JsonPath limit = chart(a, "metric=container_mem_limit&groupBy=container" + range);
        assertEquals(4.0 * CadvisorBodies.GIB, last(limit, 0));

        JsonPath used = chart(a, "metric=mem_used&groupBy=pod" + range);
        assertEquals(1, used.getList("series").size());
        assertEquals("B", used.getString("series[0].unit"));
        assertEquals(4.0 * CadvisorBodies.GIB + 64e6, last(used, 0), 1, "the working sets of main and sidecar");
        JsonPath cpu = chart(a, "metric=cpu_util&groupBy=pod" + range);
        assertEquals("cores", cpu.getString("series[0].unit"));
        assertTrue(Fixtures.points(cpu, 0) >= 3, cpu.prettify());
        assertEquals(1.6, last(cpu, 0), 0.001, "main 1.5 + sidecar 0.1 cores, the pod's cgroup not again");
        JsonPath net = chart(a, "metric=net_rx&metric=container_net_tx&groupBy=pod" + range);
        assertEquals(1000, last(net, 0), 0.5, "the sandbox's row, not it and the pod cgroup's");
        assertEquals(500, last(net, 1), 0.5);

        JsonPath other = chart(b, "metric=container_mem_working_set&metric=net_rx&metric=cpu_util&groupBy=container"
                + range);
        // network is the pod's (its sandbox): per pod even when split by container
        assertEquals(List.of(Map.of("pod", podB, "container", "main"), Map.of("pod", podB),
                Map.of("pod", podB, "container", "main")), other.getList("series.group"), other.prettify());
        assertEquals(2.0 * CadvisorBodies.GIB, last(other, 0));
        assertEquals(3000, last(other, 1), 0.5, "containerd: the pod cgroup's row");
        assertEquals(0.5, last(other, 2), 0.001);
        assertFalse(mem.prettify().contains(podB));

        assertEquals(0, Sql.count(pool, "SELECT count(*) FROM series s JOIN label_set l ON l.id = s.label_set_id WHERE s.node = $1 AND l.pod IS NULL", node),
                "the node's own cgroups are not stored");
        assertEquals(0, Sql.count(pool, "SELECT count(*) FROM series WHERE node = $1 AND metric = 'container_threads'",
                node), "nor families no chart reads");
    }

    @Test
    void inKubeletModeTheKubeletsPortIsScrapedWithTheServiceAccountToken() throws IOException {
        String node = Fixtures.newId("kl-node");
        int port = kubeletPort(CadvisorBodies.body("x-0", "y-0", 0, Instant.now().toEpochMilli()));
        k8s.getClient().nodes().resource(new NodeBuilder().withNewMetadata().withName(node).endMetadata().withNewStatus()
                .addNewAddress().withType("InternalIP").withAddress("127.0.0.1").endAddress().withNewDaemonEndpoints()
                .withNewKubeletEndpoint().withPort(port).endKubeletEndpoint().endDaemonEndpoints().endStatus().build())
                .create();
        List<ScrapeTarget> direct = discovery.discoverAll().await().atMost(WAIT).get("direct");
        ScrapeTarget t = direct.stream().filter(x -> x.node().equals(node)).findFirst().orElseThrow();
        assertEquals("http://127.0.0.1:" + port + "/metrics/cadvisor", t.url());
        Scraper.Result r = scraper.scrape(t).await().atMost(WAIT);
        assertTrue(r.up(), r.error());
        assertEquals("Bearer " + CadvisorProfile.TOKEN, AUTHORIZATIONS.get(AUTHORIZATIONS.size() - 1));
        assertTrue(r.samples().stream().allMatch(s -> s.labels().get("pod") != null));
        assertTrue(r.samples().stream().anyMatch(s -> s.name().equals(Cadvisor.WORKING_SET)
                && "x-0".equals(s.labels().get("pod")) && "main".equals(s.labels().get("container"))));
    }
}
