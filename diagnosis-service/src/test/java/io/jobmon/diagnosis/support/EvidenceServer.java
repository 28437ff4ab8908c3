package io.jobmon.diagnosis.support;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/**
 * The four evidence sources (job-service, event-ingest, log-service, metrics-service) faked by one WireMock server;
 * a test serves a bundle's sections for its own job id, or takes one source down for it. It is also the token
 * endpoint of the service account: the client-credentials grant answers {@link Tokens#service()}, a token as
 * Keycloak issues it to the realm's {@code jobmon-diagnosis} client.
 */
public class EvidenceServer implements QuarkusTestResourceLifecycleManager {

    private static WireMockServer server;
    private static String serviceToken;

    @Override
    public Map<String, String> start() {
        server = new WireMockServer(options().dynamicPort());
        server.start();
        String url = server.baseUrl();
        server.stubFor(post(urlPathEqualTo("/token")).withRequestBody(containing("grant_type=client_credentials"))
                .willReturn(okJson("{\"access_token\":\"" + (serviceToken = Tokens.service()) + "\",\"token_type\":\"Bearer\","
                        + "\"expires_in\":3600}")));
        return Map.of("quarkus.rest-client.job-service.url", url,
                "quarkus.rest-client.event-ingest-service.url", url,
                "quarkus.rest-client.log-service.url", url,
                "quarkus.rest-client.metrics-service.url", url,
                "quarkus.oidc-client.token-path", url + "/token");
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop();
        }
    }

    public static WireMockServer server() {
        return server;
    }

    /** The token the service account's grant answers. */
    public static String serviceToken() {
        return serviceToken;
    }

    /** Serves the bundle's sections as the four services would answer for {@code jobId}. */
    public static void serve(String jobId, JsonNode bundle) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        String base = "/api/v1/jobs/" + jobId;
        server.stubFor(get(urlPathEqualTo(base)).willReturn(okJson(bundle.path("job").toString())));
        server.stubFor(get(urlPathEqualTo(base + "/pods")).willReturn(okJson(items(f, "items", bundle.path("pods")))));
        server.stubFor(get(urlPathEqualTo(base + "/events")).willReturn(okJson(items(f, "items", bundle.path("events")))));
        server.stubFor(get(urlPathEqualTo(base + "/logs")).willReturn(okJson(items(f, "items", bundle.path("logs")))));
        server.stubFor(get(urlPathEqualTo(base + "/metrics"))
                .willReturn(okJson(items(f, "series", bundle.path("metrics")))));
    }

    /** Every source answers 503 for this job: job-service (job, pods, attempts), events, logs and metrics. */
    public static void allDown(String jobId) {
        server.stubFor(get(urlPathMatching("/api/v1/jobs/" + jobId + "(/.*)?")).atPriority(1)
                .willReturn(aResponse().withStatus(503)));
    }

    /** The source of {@code section} (pods, events, logs, metrics) answers 503 for this job. */
    public static void down(String jobId, String section) {
        server.stubFor(get(urlPathEqualTo("/api/v1/jobs/" + jobId + "/" + section)).atPriority(1)
                .willReturn(aResponse().withStatus(503)));
    }

    private static String items(JsonNodeFactory f, String key, JsonNode list) {
        ObjectNode o = f.objectNode();
        o.set(key, list.isArray() ? list : f.arrayNode());
        return o.toString();
    }
}
