package io.jobmon.sim.stack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A client of the local stack as a user sees it: tokens from the realm (password grant, password = user name, as the
 * local realm's users have), every call through the gateway with one; and the sim's own admin API and Kubernetes API
 * (plain HTTP). For {@code ./jobmon demo}, {@code ./jobmon replay} and the end-to-end tests.
 */
public final class StackClient {

    static final ObjectMapper JSON = new ObjectMapper();

    /** An answer: status and body (JSON when it parses, else missing). */
    public record Answer(int status, JsonNode json, String body) {
        public boolean ok() {
            return status >= 200 && status < 300;
        }

        /** The body as JSON of a 2xx answer, else an exception naming what was asked and what came back. */
        public JsonNode require(String what) {
            if (!ok()) {
                throw new IllegalStateException(what + ": HTTP " + status + " " + body);
            }
            return json;
        }
    }

    private record Token(String value, Instant expires) {
    }

    private final StackOptions options;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Map<String, Token> tokens = new ConcurrentHashMap<>();

    public StackClient(StackOptions options) {
        this.options = options;
    }

    public StackOptions options() {
        return options;
    }

    /** An access token of a realm user (cached until shortly before it expires). */
    public String token(String user) {
        Token t = tokens.get(user);
        if (t != null && Instant.now().isBefore(t.expires())) {
            return t.value();
        }
        String form = "grant_type=password&client_id=" + enc(options.client()) + "&username=" + enc(user) + "&password="
                + enc(user);
        Answer a = send(HttpRequest.newBuilder(URI.create(options.issuer() + "/protocol/openid-connect/token"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)));
        JsonNode body = a.require("token of " + user + " from " + options.issuer());
        Token fresh = new Token(body.path("access_token").asText(),
                Instant.now().plusSeconds(Math.max(10, body.path("expires_in").asLong(60) - 30)));
        tokens.put(user, fresh);
        return fresh.value();
    }

    /** GET a gateway path ({@code /api/v1/...}) as a user. */
    public Answer get(String user, String path) {
        return send(api(user, path).GET());
    }

    /** POST JSON to a gateway path as a user. */
    public Answer post(String user, String path, Object body) {
        return send(api(user, path).header("Content-Type", "application/json").POST(json(body)));
    }

    /** PUT JSON to a gateway path as a user. */
    public Answer put(String user, String path, Object body) {
        return send(api(user, path).header("Content-Type", "application/json").PUT(json(body)));
    }

    /** A call to the sim's admin API ({@code /replay}, {@code /replay/pending}, {@code /healthz}). */
    public Answer simAdmin(String method, String pathAndQuery, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(options.simAdmin() + pathAndQuery))
                .timeout(Duration.ofSeconds(60));
        b = body == null ? b.method(method, HttpRequest.BodyPublishers.noBody())
                : b.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
        return send(b);
    }

    /** A GET on the sim's Kubernetes API (plain HTTP, no token needed), e.g. {@code /api/v1/namespaces/x/pods}. */
    public Answer kube(String path) {
        return send(HttpRequest.newBuilder(URI.create(options.simApi() + path)).timeout(Duration.ofSeconds(30)).GET());
    }

    private HttpRequest.Builder api(String user, String path) {
        return HttpRequest.newBuilder(URI.create(options.gateway() + path)).timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + token(user)).header("Accept-Language", "en");
    }

    private static HttpRequest.BodyPublisher json(Object body) {
        try {
            return HttpRequest.BodyPublishers.ofString(body instanceof String s ? s : JSON.writeValueAsString(body));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Answer send(HttpRequest.Builder request) {
        HttpRequest r = request.build();
        try {
            HttpResponse<String> resp = http.send(r, HttpResponse.BodyHandlers.ofString());
            JsonNode json;
            try {
                json = resp.body().isEmpty() ? MissingNode.getInstance() : JSON.readTree(resp.body());
            } catch (IOException notJson) {
                json = MissingNode.getInstance();
            }
            return new Answer(resp.statusCode(), json, resp.body());
        } catch (IOException e) {
            throw new UncheckedIOException(r.method() + " " + r.uri() + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
