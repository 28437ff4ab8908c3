package io.jobmon.diagnosis.task;

import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.matching;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.MappingBuilder;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.diagnosis.support.Diagnoses;
import io.jobmon.diagnosis.support.EvidenceServer;
import io.jobmon.diagnosis.support.Jobs;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * A task reads the platform as the services answer (job-service, event-ingest, log-service, metrics-service, faked
 * with their own answer forms): pods and events page by page with the largest page the services allow, the window's
 * user and system lines, keyword searches over the whole run, metrics at full resolution for the window and at
 * 1-minute steps for the run before it. A task whose sources all fail is UNKNOWN, never HEALTHY.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithTestResource(EvidenceServer.class)
class EvidenceGatheringTest {

    @Test
    void aThreeDayJobIsReadFromEverySourceWithinBoundsAndTheCauseBeforeTheWindowIsFound() {
        Instant finished = Instant.now().minus(Duration.ofMinutes(10)).truncatedTo(ChronoUnit.SECONDS);
        Instant started = finished.minus(Duration.ofDays(3));
        String job = Jobs.job(Jobs.newId("threedays")).status(JobStatus.FAILED).ran(started, finished).publish();
        Instant windowTo = finished.plusSeconds(60);
        Instant windowFrom = windowTo.minus(Duration.ofMinutes(30));
        serveThreeDayJob(job, started, finished);

        String token = Tokens.alice();
        String id = Diagnoses.ask(token, job, "{}");
        JsonPath d = Diagnoses.awaitFinished(token, id);
        assertEquals("DONE", d.getString("status"));
        assertEquals(windowFrom, Instant.parse(d.getString("window.from")),
                "the last 30 minutes of the run, by default");
        assertEquals(windowTo, Instant.parse(d.getString("window.to")));
        assertEquals(List.of(), d.getList("missingSources"));
        assertEquals("GPU_HARDWARE_FAULT", d.getString("result.category"), d.prettify());
        assertTrue(d.getList("result.evidence.text", String.class).stream().anyMatch(t -> t.contains("Xid")),
                "the Xid line found by the run-long search, 45 minutes before the end, is quoted: " + d.prettify());

        WireMockServer wm = EvidenceServer.server();
        String base = "/api/v1/jobs/" + job;
        // events: pages of 500 (never more than event-ingest allows), the second one by the cursor
        wm.verify(2, getRequestedFor(urlPathEqualTo(base + "/events")).withQueryParam("limit", equalTo("500")));
        wm.verify(getRequestedFor(urlPathEqualTo(base + "/events")).withQueryParam("cursor", equalTo("ev-2"))
                .withQueryParam("from", equalTo(windowFrom.toString())).withQueryParam("to", equalTo(windowTo.toString())));
        wm.verify(getRequestedFor(urlPathEqualTo(base + "/pods")).withQueryParam("cursor", equalTo("pod-2")));
        // logs: the window's user and system lines, and the keyword searched over the whole run
        wm.verify(getRequestedFor(urlPathEqualTo(base + "/logs")).withQueryParam("type", equalTo("user"))
                .withQueryParam("tail", equalTo("5000")).withQueryParam("from", equalTo(windowFrom.toString())));
        wm.verify(getRequestedFor(urlPathEqualTo(base + "/logs")).withQueryParam("type", equalTo("system"))
                .withQueryParam("tail", equalTo("1000")));
        wm.verify(getRequestedFor(urlPathEqualTo(base + "/logs")).withQueryParam("q", equalTo("xid"))
                .withQueryParam("ignoreCase", equalTo("true")).withQueryParam("limit", equalTo("20"))
                .withQueryParam("from", equalTo(started.toString())).withQueryParam("to", equalTo(windowTo.toString())));
        // metrics: the window at the finest step, the run before it at 1-minute steps, per GPU
        wm.verify(getRequestedFor(urlPathEqualTo(base + "/metrics")).withQueryParam("step", absent())
                .withQueryParam("from", equalTo(windowFrom.toString())).withQueryParam("groupBy", equalTo("gpu"))
                .withQueryParam("metric", equalTo("xid")));
        wm.verify(getRequestedFor(urlPathEqualTo(base + "/metrics")).withQueryParam("step", equalTo("60"))
                .withQueryParam("from", equalTo(started.toString())).withQueryParam("to", equalTo(windowFrom.toString())));
        wm.verify(getRequestedFor(urlPathEqualTo(base + "/attempts")).withHeader("Authorization",
                equalTo("Bearer " + token)));

        Map<String, Object> read = d.getMap("evidenceRead");
        assertEquals(Map.of("events", 3, "pages", 2, "complete", true), read.get("events"));
        assertEquals(Map.of("pods", 2, "pages", 2, "complete", true), read.get("pods"));
        Map<?, ?> logs = (Map<?, ?>) read.get("logs");
        assertEquals(3, logs.get("window"));
        assertEquals(1, logs.get("system"));
        assertEquals(1, logs.get("keywords"));
        Map<?, ?> metrics = (Map<?, ?>) read.get("metrics");
        assertEquals(60, metrics.get("runStepSeconds"));
        assertEquals(3, metrics.get("runPoints"));
        assertEquals(2, metrics.get("windowPoints"));
    }

    @Test
    void aTaskWhoseSourcesAllFailIsUnknownNeverHealthy() {
        String job = Jobs.job(Jobs.newId("alldown")).publish(); // RUNNING
        EvidenceServer.allDown(job);
        String id = Diagnoses.ask(Tokens.alice(), job, "{}");
        JsonPath d = Diagnoses.awaitFinished(Tokens.alice(), id);
        assertEquals("DONE", d.getString("status"));
        assertEquals(List.of("job", "pods", "events", "logs", "metrics"), d.getList("missingSources"));
        assertEquals("UNKNOWN", d.getString("result.category"), d.prettify());
        assertTrue(d.getString("sourceErrors.metrics").contains("metrics-service"), d.getString("sourceErrors.metrics"));
    }

    @Test
    void periodicDiagnosesOfARunningJobWithNoEvidenceAreUnknownAndNeverAct() {
        String job = Jobs.newId("periodic-alldown");
        EvidenceServer.allDown(job);
        Jobs.job(job).autoFault(true, 0, 3).publish();
        Awaitility.await().atMost(Duration.ofSeconds(90)).until(() -> Diagnoses.history(Tokens.alice(), job)
                .getList("items.findAll { it.trigger == 'PERIODIC' && it.status == 'DONE' }").size() >= 2);
        List<String> categories = Diagnoses.history(Tokens.alice(), job)
                .getList("items.findAll { it.trigger == 'PERIODIC' && it.status == 'DONE' }.result.category");
        assertFalse(categories.isEmpty());
        assertTrue(categories.stream().allMatch("UNKNOWN"::equals), categories.toString());
        // and they were gathered with the service account's own token, as Keycloak issues it to jobmon-diagnosis
        EvidenceServer.server().verify(getRequestedFor(urlPathEqualTo("/api/v1/jobs/" + job + "/logs"))
                .withHeader("Authorization", equalTo("Bearer " + EvidenceServer.serviceToken())));
    }

    private static void serveThreeDayJob(String job, Instant started, Instant finished) {
        WireMockServer wm = EvidenceServer.server();
        String base = "/api/v1/jobs/" + job;
        String pod0 = job + "-worker-0";
        String pod1 = job + "-worker-1";
        wm.stubFor(get(urlPathEqualTo(base)).willReturn(okJson("{\"id\":\"" + job + "\",\"name\":\"llm-pt\","
                + "\"status\":\"FAILED\",\"reason\":\"Error\",\"message\":\"container trainer exited 1\",\"exitCode\":1,"
                + "\"gpu\":\"A800\",\"gpuCount\":16,\"submittedAt\":\"" + started.minusSeconds(300) + "\",\"startedAt\":\""
                + started + "\",\"finishedAt\":\"" + finished + "\",\"retry\":{\"attempt\":1,\"supportsRestart\":true,"
                + "\"autoFaultHandling\":false,\"maxRetries\":3,\"retriesUsed\":0}}")));
        wm.stubFor(get(urlPathEqualTo(base + "/attempts")).willReturn(okJson("{\"rootId\":\"" + job + "\","
                + "\"supportsRestart\":true,\"autoFaultHandling\":false,\"maxRetries\":3,\"retriesUsed\":0,"
                + "\"retriesLeft\":3,\"attempts\":[],\"commands\":[]}")));
        wm.stubFor(page(base + "/pods", null).willReturn(okJson("{\"items\":[" + pod(pod0, "gpu-node-07")
                + "],\"nextCursor\":\"pod-2\"}")));
        wm.stubFor(page(base + "/pods", "pod-2").willReturn(okJson("{\"items\":[" + pod(pod1, "gpu-node-08")
                + "],\"nextCursor\":null}")));
        Instant end = finished;
        wm.stubFor(page(base + "/events", null).willReturn(okJson("{\"items\":["
                + event(end.minusSeconds(900), "Normal", "Pulled", pod0, "Container image already present on machine")
                + "," + event(end.minusSeconds(30), "Warning", "BackOff", pod1, "Back-off restarting failed container")
                + "],\"nextCursor\":\"ev-2\"}")));
        wm.stubFor(page(base + "/events", "ev-2").willReturn(okJson("{\"items\":["
                + event(end.minusSeconds(10), "Normal", "Killing", pod0, "Stopping container trainer")
                + "],\"nextCursor\":null}")));
        String watchdog = "[rank%d]:[E ProcessGroupNCCL.cpp:607] [Rank %d] Watchdog caught collective operation timeout: "
                + "WorkNCCL(SeqNum=88121, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600021 milliseconds";
        wm.stubFor(get(urlPathEqualTo(base + "/logs")).withQueryParam("type", equalTo("user")).willReturn(okJson(
                "{\"items\":[" + line("c1", end.minusSeconds(1500), pod0, "user", "h3:1:2 [0] NCCL INFO comm 0x5581 rank 0 nranks 16 cudaDev 0 busId 3b000 - Init COMPLETE")
                        + "," + line("c2", end.minusSeconds(5), pod0, "user", watchdog.formatted(0, 0))
                        + "," + line("c3", end.minusSeconds(4), pod1, "user", watchdog.formatted(1, 1))
                        + "],\"nextCursor\":null}")));
        wm.stubFor(get(urlPathEqualTo(base + "/logs")).withQueryParam("type", equalTo("system")).willReturn(okJson(
                "{\"items\":[" + line("s1", end.minusSeconds(3), null, "system",
                        "kubelet: Killing container with id containerd://1c2f trainer") + "],\"nextCursor\":null}")));
        wm.stubFor(get(urlPathEqualTo(base + "/logs")).withQueryParam("q", matching(".+")).willReturn(
                okJson("{\"items\":[],\"nextCursor\":null}")));
        wm.stubFor(get(urlPathEqualTo(base + "/logs")).withQueryParam("q", equalTo("xid")).atPriority(1)
                .willReturn(okJson("{\"items\":[" + line("k1", end.minus(Duration.ofMinutes(45)), null, "system",
                        "NVRM: Xid (PCI:0000:3b:00): 79, pid=2871, GPU has fallen off the bus.") + "],\"nextCursor\":null}")));
        wm.stubFor(get(urlPathEqualTo(base + "/metrics")).withQueryParam("step", absent()).willReturn(okJson(
                "{\"stepSeconds\":15,\"series\":[{\"metric\":\"gpu_util\",\"unit\":\"%\",\"group\":{\"node\":\"gpu-node-07\","
                        + "\"gpu\":\"0\"},\"points\":[[\"" + end.minusSeconds(60) + "\",0.0],[\"" + end.minusSeconds(45)
                        + "\",0.0]]}]}")));
        wm.stubFor(get(urlPathEqualTo(base + "/metrics")).withQueryParam("step", equalTo("60")).willReturn(okJson(
                "{\"stepSeconds\":60,\"series\":[{\"metric\":\"gpu_util\",\"unit\":\"%\",\"group\":{\"node\":\"gpu-node-07\","
                        + "\"gpu\":\"0\"},\"points\":[[\"" + started.plusSeconds(60) + "\",96.0],[\"" + end.minus(Duration.ofHours(1))
                        + "\",95.0],[\"" + end.minus(Duration.ofMinutes(44)) + "\",0.0]]}]}")));
    }

    private static MappingBuilder page(String path, String cursor) {
        MappingBuilder m = get(urlPathEqualTo(path)).withQueryParam("limit", equalTo("500"));
        return cursor == null ? m.withQueryParam("cursor", absent()) : m.withQueryParam("cursor", equalTo(cursor));
    }

    private static String pod(String name, String node) {
        return "{\"name\":\"" + name + "\",\"namespace\":\"team\",\"node\":\"" + node + "\",\"phase\":\"Failed\","
                + "\"containers\":[{\"name\":\"trainer\",\"state\":\"terminated\",\"reason\":\"Error\",\"exitCode\":1,"
                + "\"restartCount\":0}]}";
    }

    private static String event(Instant t, String type, String reason, String pod, String message) {
        return "{\"time\":\"" + t + "\",\"type\":\"" + type + "\",\"reason\":\"" + reason + "\",\"message\":\"" + message
                + "\",\"count\":1,\"pod\":\"" + pod + "\",\"object\":{\"kind\":\"Pod\",\"name\":\"" + pod + "\"}}";
    }

    private static String line(String cursor, Instant t, String pod, String stream, String text) {
        return "{\"time\":\"" + t + "\",\"stream\":\"" + stream + "\",\"pod\":" + (pod == null ? "null" : "\"" + pod + "\"")
                + ",\"container\":\"trainer\",\"node\":\"gpu-node-07\",\"line\":\"" + text + "\",\"cursor\":\"" + cursor + "\"}";
    }
}
