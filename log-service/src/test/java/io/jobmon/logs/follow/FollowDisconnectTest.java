package io.jobmon.logs.follow;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import jakarta.inject.Inject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A client that goes away right after the 200 head, before the tail is written, gives its place in the per-user
 * limit back (issue #26, point 1): the close handler is there before any work of the follow starts.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
class FollowDisconnectTest {

    @TestHTTPResource("/")
    URI base;

    @Inject
    MeterRegistry registry;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void followsClosedBeforeTheTailGiveTheirPlaceBack() throws Exception {
        String job = FollowAndDownloadTest.seedJob(20);
        String token = Tokens.user("alice").groups("project-nlp").get();
        for (int i = 0; i < 5; i++) {
            try (Socket s = new Socket(base.getHost(), base.getPort())) {
                s.getOutputStream().write(("GET /api/v1/jobs/" + job + "/logs/stream?tail=5 HTTP/1.1\r\nHost: localhost\r\n"
                        + "Authorization: Bearer " + token + "\r\nAccept: text/event-stream\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                s.getOutputStream().flush();
                String head = head(s.getInputStream());
                assertTrue(head.startsWith("HTTP/1.1 200"), head);
                s.setSoLinger(true, 0); // gone at once, as a browser tab closed
            }
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> openFollows() == 0);
        int limit = 2; // %test.jobmon.logs.follow.per-user-limit
        List<HttpResponse<InputStream>> open = new ArrayList<>();
        try {
            for (int i = 0; i < limit; i++) {
                HttpResponse<InputStream> r = follow(job, token);
                assertEquals(200, r.statusCode());
                open.add(r);
            }
            assertEquals(429, follow(job, token).statusCode(), "the limit still holds");
        } finally {
            for (HttpResponse<InputStream> r : open) {
                r.body().close();
            }
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> openFollows() == 0);
        HttpResponse<InputStream> again = follow(job, token);
        assertEquals(200, again.statusCode());
        again.body().close();
        await().atMost(Duration.ofSeconds(10)).until(() -> openFollows() == 0);
        given().auth().oauth2(token).get("/api/v1/jobs/" + job + "/logs?limit=1").then().statusCode(200);
    }

    private HttpResponse<InputStream> follow(String job, String token) throws Exception {
        return http.send(HttpRequest.newBuilder(base.resolve("/api/v1/jobs/" + job + "/logs/stream?tail=5"))
                .header("Authorization", "Bearer " + token).header("Accept", "text/event-stream").build(),
                HttpResponse.BodyHandlers.ofInputStream());
    }

    private double openFollows() {
        return registry.get("jobmon.logs.follows.open").gauge().value();
    }

    /** The response head, up to the empty line. */
    private static String head(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0) {
            out.write(b);
            byte[] a = out.toByteArray();
            int n = a.length;
            if (n >= 4 && a[n - 4] == '\r' && a[n - 3] == '\n' && a[n - 2] == '\r' && a[n - 1] == '\n') {
                break;
            }
        }
        return out.toString(StandardCharsets.US_ASCII);
    }
}
