package io.jobmon.logs.attribution;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.GpuHolding;
import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.events.Topics;
import io.jobmon.logs.Fixtures;
import io.jobmon.testsupport.KafkaTestClient;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import io.restassured.path.json.JsonPath;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two jobs of two users on one node (issue #24): job A's user lines as Fluent Bit records carrying its pod's UID and
 * container id, a kernel OOM-killer block of A's container and one of B's (cgroup v2, systemd driver), an Xid of a
 * GPU A held (a record on jobmon.gpu.holdings) and one of a GPU nobody known held, node-wide lines (NotReady, a link
 * down), a kubelet line naming A's pod and one naming nothing. Each job's {@code type=system} logs hold its own lines
 * with the reason and the node-wide ones, on every endpoint; the admins' node view holds them all.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
class CoLocatedJobsTest {

    static final Instant T0 = Instant.parse("2026-07-13T12:00:00Z");
    static final String NODE = "gpu-node-31";
    static final String BUS_A = "00000000:CB:00.0";
    static final String GPU_A = "GPU-8f0c2b5e-3d1a-4c7b-9e6f-2a1b0c9d8e7f";

    static String jobA;
    static String jobB;
    static String podA;
    static String podB;
    static final String UID_A = UUID.randomUUID().toString();
    static final String UID_B = UUID.randomUUID().toString();
    static final String CID_A = hex64('a');
    static final String CID_B = hex64('b');
    static List<String> linesA;
    static List<String> linesB;
    static List<String> all;

    @TestHTTPResource("/")
    URI base;

    static String hex64(char c) {
        String u = UUID.randomUUID().toString().replace("-", "");
        return (u + u).substring(0, 63) + c;
    }

    static JobSnapshot job(String id, String owner, String project, String pod) {
        return new JobSnapshot(id, "t1", owner, project, "PRIVATE", List.of(), "train-" + owner, "local", "local", "default",
                JobStatus.RUNNING, null, "A800", 1, List.of(pod), List.of(NODE), false, false, 0, 0,
                Instant.parse("2026-07-13T11:50:00Z"), Instant.parse("2026-07-13T11:55:00Z"), null, 1, false, "team-nlp",
                null, List.of());
    }

    /** A Fluent Bit container record with the kubernetes filter's pod_id and docker_id. */
    static String fluentBit(String job, String pod, String uid, String cid, Instant time, String line) {
        return "{\"@timestamp\":" + time.getEpochSecond() + "." + String.format("%06d", time.getNano() / 1000)
                + ",\"stream\":\"stdout\",\"_p\":\"F\",\"log\":" + CloudEvents.toJson(line) + ",\"kubernetes\":{\"pod_name\":\""
                + pod + "\",\"namespace_name\":\"team-nlp\",\"pod_id\":\"" + uid + "\",\"labels\":{\"jobmon.io/job-id\":\"" + job
                + "\"},\"host\":\"" + NODE + "\",\"container_name\":\"trainer\",\"docker_id\":\"" + cid
                + "\",\"container_image\":\"trainer:2.4\"}}";
    }

    /** Fluent Bit's kmsg input with the node's name added. */
    static String kmsg(Instant time, String msg) {
        return "{\"priority\":3,\"sec\":" + time.getEpochSecond() + ",\"usec\":" + time.getNano() / 1000 + ",\"msg\":"
                + CloudEvents.toJson(msg) + ",\"hostname\":\"" + NODE + "\"}";
    }

    /** Fluent Bit's systemd input, kubelet unit. */
    static String kubelet(Instant time, String msg) {
        return "{\"@timestamp\":" + time.getEpochSecond() + "." + String.format("%06d", time.getNano() / 1000)
                + ",\"_HOSTNAME\":\"" + NODE + "\",\"SYSLOG_IDENTIFIER\":\"kubelet\",\"_SYSTEMD_UNIT\":\"kubelet.service\","
                + "\"MESSAGE\":" + CloudEvents.toJson(msg) + "}";
    }

    static List<String> oom(String uid, String cid, int pid) {
        List<String> block = new ArrayList<>(SystemLineAttributionTest.oomBlockV2(uid, cid, pid));
        block.add("oom_reaper: reaped process " + pid + " (python), now anon-rss:0kB, file-rss:0kB, shmem-rss:0kB");
        return block;
    }

    @BeforeEach
    void seed() {
        if (jobA != null) {
            return;
        }
        jobA = Fixtures.newJob();
        jobB = Fixtures.newJob();
        podA = jobA + "-w0";
        podB = jobB + "-w0";
        Fixtures.publish(job(jobA, "alice", "project-nlp", podA));
        Fixtures.publish(job(jobB, "carol", "project-cv", podB));
        KafkaTestClient.send(Topics.GPU_HOLDINGS, NODE + "/" + GPU_A, CloudEvents.encode("/metrics-service", GpuHolding.TYPE,
                NODE + "/" + GPU_A, new GpuHolding("local", NODE, "3", GPU_A, BUS_A, "nvidia3", "NVIDIA A800-SXM4-80GB",
                        "team-nlp", podA, Instant.parse("2026-07-13T11:55:10Z"), null)));
        List<String> records = new ArrayList<>();
        records.add(fluentBit(jobA, podA, UID_A, CID_A, T0, "epoch 0 step 1 loss=2.1"));
        records.add(fluentBit(jobB, podB, UID_B, CID_B, T0, "Map (num_proc=64): 3%"));
        List<String> oomA = oom(UID_A, CID_A, 67);
        List<String> oomB = oom(UID_B, CID_B, 68);
        for (int i = 0; i < oomA.size(); i++) {
            records.add(kmsg(T0.plusSeconds(100).plusMillis(i), oomA.get(i)));
            records.add(kmsg(T0.plusSeconds(220).plusMillis(i), oomB.get(i)));
        }
        String xidA = "NVRM: Xid (PCI:0000:cb:00): 79, pid=1234, name=python, GPU has fallen off the bus.";
        String xidOther = "NVRM: Xid (PCI:0000:3b:00): 79, pid=2345, name=python, GPU has fallen off the bus.";
        String linkDown = "mlx5_core 0000:5e:00.0 ibp94s0: Link down";
        String notReady = "\"Node became not ready\" node=\"" + NODE + "\" condition={\"type\":\"Ready\",\"status\":\"False\","
                + "\"reason\":\"KubeletNotReady\",\"message\":\"PLEG is not healthy: pleg was last seen active 3m0s ago\"}";
        String killA = "\"Killing container with a grace period\" pod=\"team-nlp/" + podA + "\" podUID=\"" + UID_A
                + "\" containerName=\"trainer\" containerID=\"containerd://" + CID_A + "\" gracePeriod=30";
        String nobody = "\"Housekeeping took longer than expected\" err=\"housekeeping took too long\" expected=\"1s\" actual=\"1.2s\"";
        records.add(kmsg(T0.plusSeconds(300), xidA));
        records.add(kmsg(T0.plusSeconds(301), xidOther));
        records.add(kmsg(T0.plusSeconds(310), linkDown));
        records.add(kubelet(T0.plusSeconds(320), notReady));
        records.add(kubelet(T0.plusSeconds(330), nobody));
        records.add(kubelet(T0.plusSeconds(340), killA));
        Fixtures.sendAll(records);
        linesA = new ArrayList<>(oomA);
        linesA.addAll(List.of(xidA, linkDown, notReady, killA));
        linesB = new ArrayList<>(oomB);
        linesB.addAll(List.of(linkDown, notReady));
        all = new ArrayList<>();
        for (int i = 0; i < oomA.size(); i++) {
            all.add(oomA.get(i));
        }
        all.addAll(oomB);
        all.addAll(List.of(xidA, xidOther, linkDown, notReady, nobody, killA));
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
                .until(() -> system(Tokens.alice(), jobA, "limit", "500").getList("items.line").size() == linesA.size());
        await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
                .until(() -> system(Tokens.carol(), jobB, "limit", "500").getList("items.line").size() == linesB.size());
    }

    static JsonPath system(String token, String job, String... params) {
        var req = given().auth().oauth2(token).queryParam("type", "system");
        for (int i = 0; i < params.length; i += 2) {
            req.queryParam(params[i], params[i + 1]);
        }
        return req.get("/api/v1/jobs/" + job + "/logs").then().statusCode(200).extract().jsonPath();
    }

    @Test
    void eachJobSeesItsOwnLinesWithTheReasonAndTheNodeWideOnesAndNoLineOfTheOthers() {
        JsonPath a = system(Tokens.alice(), jobA, "limit", "500");
        assertEquals(sorted(linesA), sorted(a.getList("items.line", String.class)));
        List<Map<String, Object>> items = a.getList("items");
        for (Map<String, Object> item : items) {
            String line = (String) item.get("line");
            @SuppressWarnings("unchecked")
            Map<String, Object> why = (Map<String, Object>) item.get("attribution");
            Map<String, Object> expected = line.startsWith("NVRM: Xid") ? Map.of("reason", "gpu", "pod", podA, "gpu", GPU_A)
                    : line.contains("Link down") || line.contains("not ready") ? Map.of("reason", "node")
                    : Map.of("reason", "pod", "pod", podA);
            assertEquals(expected, why, line);
        }
        JsonPath b = system(Tokens.carol(), jobB, "limit", "500");
        assertEquals(sorted(linesB), sorted(b.getList("items.line", String.class)));
        assertFalse(b.getList("items.line", String.class).stream().anyMatch(l -> l.contains("Killed process 67")));
        assertFalse(a.getList("items.line", String.class).stream().anyMatch(l -> l.contains("Killed process 68")));
        // user lines carry no attribution
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + jobA + "/logs?type=user").then().statusCode(200)
                .body("items[0].attribution", org.hamcrest.Matchers.nullValue());
    }

    @Test
    void pagingTailCountPodsAndDownloadAgreeOnTheJobsSystemLines() {
        List<String> whole = system(Tokens.alice(), jobA, "limit", "500").getList("items.line", String.class);
        List<String> paged = new ArrayList<>();
        String cursor = null;
        do {
            JsonPath p = cursor == null ? system(Tokens.alice(), jobA, "limit", "3")
                    : system(Tokens.alice(), jobA, "limit", "3", "cursor", cursor);
            paged.addAll(p.getList("items.line", String.class));
            cursor = p.getString("nextCursor");
        } while (cursor != null);
        assertEquals(whole, paged);
        List<String> back = new ArrayList<>();
        cursor = null;
        do {
            JsonPath p = cursor == null ? system(Tokens.alice(), jobA, "limit", "4", "direction", "backward")
                    : system(Tokens.alice(), jobA, "limit", "4", "direction", "backward", "cursor", cursor);
            List<String> page = new ArrayList<>(p.getList("items.line", String.class));
            java.util.Collections.reverse(page);
            back.addAll(0, page);
            cursor = p.getString("nextCursor");
        } while (cursor != null);
        assertEquals(whole, back);
        assertEquals(whole.subList(whole.size() - 2, whole.size()), system(Tokens.alice(), jobA, "tail", "2")
                .getList("items.line", String.class));
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + jobA + "/logs/count?type=system").then().statusCode(200)
                .body("lines", org.hamcrest.Matchers.equalTo(linesA.size()));
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + jobA + "/logs/count?type=system&q=Killed").then()
                .statusCode(200).body("lines", org.hamcrest.Matchers.equalTo(1));
        JsonPath pods = given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + jobA + "/logs/pods").then().statusCode(200)
                .extract().jsonPath();
        assertEquals(linesA.size(), pods.getList("system.lines", Integer.class).stream().mapToInt(Integer::intValue).sum());
        String text = given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + jobA + "/logs/download?type=system").then()
                .statusCode(200).extract().asString();
        assertTrue(text.contains("Killed process 67 (python)"), text);
        assertFalse(text.contains("Killed process 68"), text);
        assertFalse(text.contains("Housekeeping"), text);
        assertFalse(text.contains("PCI:0000:3b:00"), text);
    }

    @Test
    void theFollowStreamsTailHoldsOnlyTheJobsSystemLines() throws Exception {
        HttpRequest req = HttpRequest.newBuilder(base.resolve("/api/v1/jobs/" + jobB + "/logs/stream?type=system&tail=100"))
                .header("Authorization", "Bearer " + Tokens.carol()).header("Accept", "text/event-stream").build();
        HttpResponse<InputStream> r = HttpClient.newHttpClient().send(req, HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, r.statusCode());
        List<String> got = CompletableFuture.supplyAsync(() -> {
            List<String> out = new ArrayList<>();
            try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null && !line.startsWith("event: following")) {
                    if (line.startsWith("data: ")) {
                        JsonNode n = CloudEvents.MAPPER.readTree(line.substring(6));
                        out.add(n.path("line").asText() + "|" + n.path("attribution").path("reason").asText());
                    }
                }
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            return out;
        }).get(30, TimeUnit.SECONDS);
        assertEquals(linesB.size(), got.size(), got.toString());
        assertTrue(got.stream().allMatch(l -> l.endsWith("|pod") || l.endsWith("|node")), got.toString());
        assertFalse(got.stream().anyMatch(l -> l.contains("Killed process 67")), got.toString());
    }

    @Test
    void adminsSeeEveryLineOfTheNodeAndNobodyElseDoes() {
        List<String> lines = given().auth().oauth2(Tokens.admin()).get("/api/v1/nodes/" + NODE + "/logs?limit=500").then()
                .statusCode(200).body("items[0].attribution", org.hamcrest.Matchers.nullValue()).extract().jsonPath()
                .getList("items.line", String.class);
        assertEquals(sorted(all), sorted(lines));
        given().auth().oauth2(Tokens.admin()).get("/api/v1/nodes/" + NODE + "/logs?tail=1").then().statusCode(200)
                .body("items.line", org.hamcrest.Matchers.contains(all.get(all.size() - 1)));
        for (String token : List.of(Tokens.alice(), Tokens.carol(), Tokens.service())) {
            given().auth().oauth2(token).get("/api/v1/nodes/" + NODE + "/logs").then().statusCode(403)
                    .contentType("application/problem+json");
        }
        given().auth().oauth2(Tokens.admin()).get("/api/v1/nodes/" + NODE + "/logs?type=user").then().statusCode(400)
                .body("errors[0].field", org.hamcrest.Matchers.equalTo("type"));
    }

    @Test
    void anInvalidHoldingGoesToTheDlqWithTheReason() {
        String marker = "node-" + Fixtures.newJob();
        String value = CloudEvents.encode("/metrics-service", GpuHolding.TYPE, marker + "/GPU-x",
                new GpuHolding("local", marker, "0", "GPU-x", null, null, null, "team-nlp", null, T0, null));
        KafkaTestClient.send(Topics.GPU_HOLDINGS, marker + "/GPU-x", value);
        List<ConsumerRecord<String, String>> dead = KafkaTestClient.await(Topics.dlq(Topics.GPU_HOLDINGS),
                rec -> rec.value().contains(marker), 1, Duration.ofSeconds(60));
        String reason = new String(dead.get(0).headers().lastHeader("dead-letter-reason").value(), StandardCharsets.UTF_8);
        assertTrue(reason.contains("missing 'pod'"), reason);
    }

    static List<String> sorted(List<String> l) {
        return l.stream().sorted().toList();
    }
}
