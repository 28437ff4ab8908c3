package io.jobmon.logs.follow;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.logs.Fixtures;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import io.restassured.path.json.JsonPath;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
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
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * A browser's follow (issue #29): EventSource sends no Authorization header, so a page asks for a stream ticket and
 * opens the stream with it, as a plain HTTP client here does (no custom header at all); and a follow of a finished
 * job ends with an {@code end} event.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
class StreamTicketTest {

    @TestHTTPResource("/")
    URI base;

    @Inject
    Pool pool;

    private final HttpClient http = HttpClient.newHttpClient();

    /** The events of a stream (name, data) until it ends or {@code max} came. */
    record Event(String name, String data) {
    }

    static List<Event> events(InputStream body, int max) throws Exception {
        List<Event> out = new ArrayList<>();
        BufferedReader reader = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
        String event = null;
        StringBuilder data = new StringBuilder();
        String line;
        while (out.size() < max && (line = reader.readLine()) != null) {
            if (line.startsWith("event: ")) {
                event = line.substring(7);
            } else if (line.startsWith("data: ")) {
                data.append(line.substring(6));
            } else if (line.isEmpty() && event != null) {
                out.add(new Event(event, data.toString()));
                event = null;
                data.setLength(0);
            }
        }
        return out;
    }

    private static JsonPath ticket(String job, String token) {
        return given().auth().oauth2(token).post("/api/v1/jobs/" + job + "/logs/stream-tickets").then().statusCode(200)
                .body("url", startsWith("/api/v1/jobs/" + job + "/logs/stream?ticket="))
                .body("expiresAt", matchesPattern("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z"))
                .extract().jsonPath();
    }

    /** GET as EventSource does it: the URL, Accept: text/event-stream, no Authorization. */
    private HttpResponse<InputStream> open(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(base.resolve(url)).header("Accept", "text/event-stream").build(),
                HttpResponse.BodyHandlers.ofInputStream());
    }

    private String problem(HttpResponse<InputStream> r) throws Exception {
        try (InputStream in = r.body()) {
            assertEquals("application/problem+json", r.headers().firstValue("Content-Type").orElse(""));
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void aTicketOpensTheFollowWithoutAHeaderOnceAndIsNeverLogged() throws Exception {
        String job = FollowAndDownloadTest.seedJob(10);
        JsonPath t = ticket(job, Tokens.alice());
        String ticket = t.getString("ticket");
        List<String> logged = new ArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord r) {
                logged.add(r.getMessage() + " " + java.util.Arrays.toString(r.getParameters()));
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger.getLogger("").addHandler(capture);
        try {
            HttpResponse<InputStream> r = open(t.getString("url") + "&type=user");
            assertEquals(200, r.statusCode());
            assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream"));
            try (InputStream body = r.body()) {
                List<Event> events = events(body, 11);
                assertEquals(List.of("line", "following"), List.of(events.get(0).name(), events.get(10).name()));
                assertEquals("line 9", CloudEvents.MAPPER.readTree(events.get(9).data()).path("line").asText());
            }
            // single use: the same URL again is a 401 problem, in the reader's language
            HttpResponse<InputStream> again = open(t.getString("url"));
            assertEquals(401, again.statusCode());
            assertTrue(problem(again).contains("stream ticket"));
        } finally {
            Logger.getLogger("").removeHandler(capture);
        }
        assertFalse(logged.stream().anyMatch(l -> l.contains(ticket)), logged.toString());
    }

    @Test
    void anExpiredTicketIs401AndAnotherJobsTicketIs404() throws Exception {
        String job = FollowAndDownloadTest.seedJob(1);
        String other = FollowAndDownloadTest.seedJob(1);
        String expired = ticket(job, Tokens.alice()).getString("ticket");
        pool.preparedQuery("UPDATE stream_ticket SET expires_at = now() - interval '1 second' WHERE hash = $1")
                .execute(Tuple.of(StreamTicketStore.hash(expired))).await().atMost(Duration.ofSeconds(10));
        HttpResponse<InputStream> r = open("/api/v1/jobs/" + job + "/logs/stream?ticket=" + expired);
        assertEquals(401, r.statusCode());
        problem(r);
        String ofOther = ticket(other, Tokens.alice()).getString("ticket");
        r = open("/api/v1/jobs/" + job + "/logs/stream?ticket=" + ofOther);
        assertEquals(404, r.statusCode());
        problem(r);
        // it still opens its own job's follow once
        r = open("/api/v1/jobs/" + other + "/logs/stream?ticket=" + ofOther);
        assertEquals(200, r.statusCode());
        r.body().close();
    }

    @Test
    void onlyTheFollowTakesATicketAndOnlyACallerWhoMaySeeTheJobGetsOne() throws Exception {
        String job = FollowAndDownloadTest.seedJob(1);
        given().auth().oauth2(Tokens.dave()).post("/api/v1/jobs/" + job + "/logs/stream-tickets").then().statusCode(404)
                .contentType("application/problem+json");
        given().post("/api/v1/jobs/" + job + "/logs/stream-tickets").then().statusCode(401);
        String ticket = ticket(job, Tokens.alice()).getString("ticket");
        for (String path : List.of("/logs?ticket=", "/logs/download?ticket=", "/logs/pods?ticket=")) {
            HttpResponse<InputStream> r = open("/api/v1/jobs/" + job + path + ticket);
            assertEquals(401, r.statusCode(), path);
            problem(r);
        }
        assertEquals(401, open("/api/v1/jobs/" + job + "/logs/stream").statusCode());
        assertEquals(401, open("/api/v1/jobs/" + job + "/logs/stream?access_token=" + Tokens.alice()).statusCode());
        // none of those used it up
        HttpResponse<InputStream> r = open("/api/v1/jobs/" + job + "/logs/stream?ticket=" + ticket);
        assertEquals(200, r.statusCode());
        r.body().close();
    }

    @Test
    void aFollowOfAFinishedJobEndsWithAnEndEventOnceItsLinesAreSent() throws Exception {
        String job = FollowAndDownloadTest.seedJob(3);
        JobSnapshot running = Fixtures.job(job, "PRIVATE", List.of(), List.of(job + "-w0"), 1);
        Instant end = Instant.parse("2026-07-13T12:00:00.250Z");
        Fixtures.publish(Fixtures.finished(running, end, 2));
        await().atMost(Duration.ofSeconds(30)).until(() -> Fixtures.count(pool,
                "SELECT count(*) FROM job_info WHERE job_id = $1 AND status = 'SUCCEEDED'", job) == 1);
        HttpResponse<InputStream> r = open(ticket(job, Tokens.alice()).getString("url"));
        assertEquals(200, r.statusCode());
        try (InputStream body = r.body()) {
            // until the server ends the stream (a follow that never ends fails here, not hangs)
            List<Event> events = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(30),
                    () -> events(body, 100));
            assertEquals(List.of("line", "line", "line", "following", "end"), events.stream().map(Event::name).toList());
            JsonNode data = CloudEvents.MAPPER.readTree(events.get(4).data());
            assertEquals("SUCCEEDED", data.path("status").asText());
            assertEquals("2026-07-13T12:00:00.250Z", data.path("finishedAt").asText());
        }
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + job + "/logs?type=user").then().statusCode(200)
                .body("items.size()", equalTo(3));
    }
}
