package io.jobmon.logs.follow;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.logs.Fixtures;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.restassured.path.json.JsonPath;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
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
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

/** Follow (SSE over real HTTP, resumed after a disconnect), download, pods and counts. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
class FollowAndDownloadTest {

    static final Instant T0 = Instant.parse("2026-07-13T11:00:00Z");

    @TestHTTPResource("/")
    URI base;

    private final HttpClient http = HttpClient.newHttpClient();

    static String seedJob(int lines) {
        String job = Fixtures.newJob();
        Fixtures.publish(Fixtures.job(job, "PRIVATE", List.of(), List.of(job + "-w0"), 1));
        send(job, 0, lines);
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> given().auth().oauth2(Tokens.alice())
                .get("/api/v1/jobs/" + job + "/logs?type=user&limit=500").then().extract().jsonPath()
                .getList("items").size() == lines);
        return job;
    }

    static void send(String job, int from, int to) {
        List<String> records = new ArrayList<>();
        for (int i = from; i < to; i++) {
            // to the microsecond, as Fluent Bit's double carries it; the API shows milliseconds
            records.add(Fixtures.fluentBit(job, job + "-w0", "trainer", T0.plusMillis(i * 10L).plusNanos(456_000),
                    "line " + i));
        }
        Fixtures.sendAll(records);
    }

    /** An open follow: its events as they come. */
    final class Follow implements AutoCloseable {
        final InputStream body;
        final BufferedReader reader;
        String lastId;
        final List<String> times = new ArrayList<>();
        final int status;

        Follow(String job, String lastEventId, String token) throws Exception {
            HttpRequest.Builder req = HttpRequest.newBuilder(base.resolve("/api/v1/jobs/" + job + "/logs/stream?type=user"))
                    .header("Authorization", "Bearer " + token).header("Accept", "text/event-stream");
            if (lastEventId != null) {
                req.header("Last-Event-ID", lastEventId);
            }
            HttpResponse<InputStream> r = http.send(req.build(), HttpResponse.BodyHandlers.ofInputStream());
            status = r.statusCode();
            body = r.body();
            reader = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
        }

        /** Reads events until {@code n} lines came (or the "following" marker, when asked). */
        List<String> lines(int n, boolean untilFollowing) throws IOException {
            List<String> out = new ArrayList<>();
            String event = null;
            StringBuilder data = new StringBuilder();
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.startsWith("id: ")) {
                    lastId = line.substring(4);
                } else if (line.startsWith("event: ")) {
                    event = line.substring(7);
                } else if (line.startsWith("data: ")) {
                    data.append(line.substring(6));
                } else if (line.isEmpty() && event != null) {
                    if (event.equals("line")) {
                        JsonNode n2 = CloudEvents.MAPPER.readTree(data.toString());
                        out.add(n2.path("line").asText());
                        times.add(n2.path("time").asText());
                    }
                    boolean following = event.equals("following");
                    event = null;
                    data.setLength(0);
                    if (following && untilFollowing || !untilFollowing && out.size() >= n) {
                        return out;
                    }
                }
            }
            return out;
        }

        @Override
        public void close() throws IOException {
            body.close();
        }
    }

    @Test
    void aFollowResumedWithLastEventIdMissesAndRepeatsNothing() throws Exception {
        String job = seedJob(10);
        List<String> seen = new ArrayList<>();
        String id;
        try (Follow f = new Follow(job, null, Tokens.alice())) {
            assertEquals(200, f.status);
            seen.addAll(f.lines(0, true)); // the tail, then "following"
            assertEquals(10, seen.size());
            send(job, 10, 30);
            seen.addAll(f.lines(8, false));
            id = f.lastId;
        } // the client goes away mid-stream
        send(job, 30, 50);
        List<String> times;
        try (Follow f = new Follow(job, id, Tokens.alice())) {
            seen.addAll(f.lines(50 - seen.size(), false));
            times = f.times;
        }
        JsonPath page = given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + job + "/logs?type=user&limit=500")
                .then().extract().jsonPath();
        List<String> full = page.getList("items.line", String.class);
        assertEquals(50, full.size());
        assertEquals(full, seen);
        // one time format in the page and the stream: RFC 3339 UTC to the millisecond
        assertEquals(page.getList("items.time", String.class).subList(50 - times.size(), 50), times);
        assertEquals("2026-07-13T11:00:00.490Z", times.get(times.size() - 1));
    }

    @Test
    void aUserBeyondTheFollowLimitGetsA429Problem() throws Exception {
        String job = seedJob(1);
        String token = Tokens.user("alice").groups("project-nlp").get();
        List<Follow> open = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                Follow f = new Follow(job, null, token);
                assertEquals(200, f.status);
                f.lines(0, true);
                open.add(f);
            }
            given().auth().oauth2(token).get("/api/v1/jobs/" + job + "/logs/stream").then().statusCode(429)
                    .contentType("application/problem+json").header("Retry-After", "30")
                    .body("detail", containsString("already follow 2"));
        } finally {
            for (Follow f : open) {
                f.close();
            }
        }
        // a closed follow gives its place back
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            try (Follow f = new Follow(job, null, token)) {
                return f.status == 200;
            }
        });
    }

    @Test
    void aFollowOfAJobTheCallerMayNotSeeIs404() {
        String job = seedJob(1);
        given().auth().oauth2(Tokens.dave()).get("/api/v1/jobs/" + job + "/logs/stream").then().statusCode(404)
                .contentType("application/problem+json");
    }

    @Test
    void theDownloadIsTheSelectionAsANamedTextFileGzippedWhenAsked() throws Exception {
        String job = seedJob(30);
        HttpResponse<byte[]> gz = http.send(HttpRequest.newBuilder(base.resolve("/api/v1/jobs/" + job
                + "/logs/download?type=user&q=line%201")).header("Authorization", "Bearer " + Tokens.alice())
                .header("Accept-Encoding", "gzip").build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, gz.statusCode());
        assertEquals("gzip", gz.headers().firstValue("Content-Encoding").orElse(""));
        assertTrue(gz.headers().firstValue("Content-Disposition").orElse("").contains("llama-sft_" + job + "_user_"),
                gz.headers().toString());
        String text = new String(new GZIPInputStream(new ByteArrayInputStream(gz.body())).readAllBytes(), StandardCharsets.UTF_8);
        List<String> lines = text.lines().toList();
        assertEquals(11, lines.size(), text); // line 1, line 10..19
        assertEquals("2026-07-13T11:00:00.010Z [" + job + "-w0/trainer] line 1", lines.get(0));
        String plain = given().auth().oauth2(Tokens.alice()).header("Accept-Encoding", "identity")
                .get("/api/v1/jobs/" + job + "/logs/download").then().statusCode(200)
                .contentType(containsString("text/plain")).extract().asString();
        assertEquals(30, plain.lines().count());
    }

    @Test
    void aQueryParameterTheStreamOrTheDownloadDoesNotTakeIsA400NamingIt() throws Exception {
        String job = seedJob(1);
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + job + "/logs/download?type=user&typ=system")
                .then().statusCode(400).contentType("application/problem+json").body("errors[0].field", equalTo("typ"))
                .body("errors[0].code", equalTo("field.unknown-parameter"));
        given().auth().oauth2(Tokens.alice()).header("Accept-Language", "zh-CN")
                .get("/api/v1/jobs/" + job + "/logs/stream?follow=true").then().statusCode(400)
                .body("errors[0].field", equalTo("follow")).body("errors[0].message", containsString("未知的查询参数"));
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + job + "/logs?type=user&limt=5").then()
                .statusCode(400).body("errors[0].field", equalTo("limt"))
                .body("errors[0].message", containsString("limit"));
    }

    @Test
    void podsListTheirContainersWithTimesAndCountsAndCountsMatchTheSearch() {
        String job = seedJob(30);
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + job + "/logs/pods").then().statusCode(200)
                .body("items[0].pod", equalTo(job + "-w0")).body("items[0].node", equalTo("gpu-node-07"))
                .body("items[0].containers[0].name", equalTo("trainer"))
                .body("items[0].containers[0].lines", equalTo(30))
                .body("items[0].firstTime", equalTo("2026-07-13T11:00:00.000Z"))
                .body("items[0].lastTime", equalTo("2026-07-13T11:00:00.290Z"));
        given().auth().oauth2(Tokens.alice()).queryParam("q", "line 2").queryParam("type", "user")
                .get("/api/v1/jobs/" + job + "/logs/count").then().statusCode(200).body("lines", equalTo(11));
    }
}
