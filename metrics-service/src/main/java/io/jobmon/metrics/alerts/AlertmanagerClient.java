package io.jobmon.metrics.alerts;

import io.jobmon.contracts.problem.ApiException;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.core.buffer.Buffer;
import io.vertx.mutiny.ext.web.client.HttpRequest;
import io.vertx.mutiny.ext.web.client.HttpResponse;
import io.vertx.mutiny.ext.web.client.WebClient;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.ConnectException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Alertmanager's v2 API ({@code jobmon.alerts.alertmanager-url}) on Vert.x's web client: the alerts it holds, its
 * silences. Alertmanager away, slow, answering 5xx or not configured fails with {@link AlertmanagerUnavailable}, which
 * the service's problem mapper answers with 503 and {@code Retry-After} (contracts' DependencyFailures).
 */
@ApplicationScoped
public class AlertmanagerClient {

    /** Alertmanager cannot be asked; a {@link ConnectException} so that it is a dependency failure, not a bug. */
    public static class AlertmanagerUnavailable extends ConnectException {
        public AlertmanagerUnavailable(String message) {
            super(message);
        }
    }

    private final WebClient client;
    private final Optional<String> base;
    private final long timeoutMs;

    public AlertmanagerClient(Vertx vertx, AlertsConfig config) {
        this.timeoutMs = config.timeout().toMillis();
        this.client = WebClient.create(vertx, new WebClientOptions().setConnectTimeout((int) timeoutMs)
                .setUserAgent("jobmon-metrics-service"));
        this.base = config.alertmanagerUrl().filter(u -> !u.isBlank())
                .map(u -> u.endsWith("/") ? u.substring(0, u.length() - 1) : u);
    }

    @PreDestroy
    void close() {
        client.close();
    }

    /** Every alert Alertmanager holds (firing, silenced, inhibited) matching all {@code filters} (matchers). */
    public Uni<List<Alert>> alerts(List<String> filters) {
        HttpRequest<Buffer> req = request("GET", "/api/v2/alerts");
        filters.forEach(f -> req.addQueryParam("filter", f));
        return send(req, null).map(r -> {
            List<Alert> out = new ArrayList<>();
            for (Object o : r.bodyAsJsonArray()) {
                out.add(alert((JsonObject) o));
            }
            return out;
        });
    }

    /** Every silence (expired ones too, for Alertmanager's retention) matching the {@code filter} matcher. */
    public Uni<List<AlertSilence>> silences(String filter) {
        HttpRequest<Buffer> req = request("GET", "/api/v2/silences").addQueryParam("filter", filter);
        return send(req, null).map(r -> {
            List<AlertSilence> out = new ArrayList<>();
            for (Object o : r.bodyAsJsonArray()) {
                out.add(silence((JsonObject) o));
            }
            return out;
        });
    }

    /** The silence, empty when Alertmanager does not know it. */
    public Uni<Optional<AlertSilence>> silence(String id) {
        return send(request("GET", "/api/v2/silence/" + id), null)
                .map(r -> r.statusCode() == 200 ? Optional.of(silence(r.bodyAsJsonObject())) : Optional.empty());
    }

    /** Creates the silence; its new id. */
    public Uni<String> create(List<AlertSilence.SilenceMatcher> matchers, Instant startsAt, Instant endsAt,
            String createdBy, String comment) {
        JsonArray ms = new JsonArray();
        matchers.forEach(m -> ms.add(new JsonObject().put("name", m.name()).put("value", m.value())
                .put("isRegex", m.isRegex()).put("isEqual", m.isEqual())));
        JsonObject body = new JsonObject().put("matchers", ms).put("startsAt", startsAt.toString())
                .put("endsAt", endsAt.toString()).put("createdBy", createdBy).put("comment", comment);
        return send(request("POST", "/api/v2/silences"), body).map(r -> {
            if (r.statusCode() != 200) {
                // what jobmon's checks let through and Alertmanager's do not (a regular expression Go does not take)
                String why = r.bodyAsString() == null ? "" : r.bodyAsString().trim();
                throw ApiException.invalid("matchers", "alerts.refused",
                        why.length() > 300 ? why.substring(0, 300) : why);
            }
            return r.bodyAsJsonObject().getString("silenceID");
        });
    }

    /** Expires the silence now. */
    public Uni<Void> expire(String id) {
        return send(request("DELETE", "/api/v2/silence/" + id), null).replaceWithVoid();
    }

    /** A matcher for a {@code filter} parameter: {@code name="value"}, the value quoted as Alertmanager parses it. */
    public static String equal(String name, String value) {
        return name + "=\"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private HttpRequest<Buffer> request(String method, String path) {
        String url = base.orElse("http://alertmanager.invalid") + path;
        HttpRequest<Buffer> req = switch (method) {
            case "POST" -> client.postAbs(url);
            case "DELETE" -> client.deleteAbs(url);
            default -> client.getAbs(url);
        };
        return req.timeout(timeoutMs);
    }

    /** Sends; a 2xx or 404 is an answer, anything else (5xx, 400 of a request jobmon built) Alertmanager's trouble. */
    private Uni<HttpResponse<Buffer>> send(HttpRequest<Buffer> req, JsonObject body) {
        if (base.isEmpty()) {
            return Uni.createFrom().failure(new AlertmanagerUnavailable("jobmon.alerts.alertmanager-url is not set"));
        }
        Uni<HttpResponse<Buffer>> sent = body == null ? req.send() : req.sendJsonObject(body);
        return sent.onFailure().transform(e -> e instanceof ConnectException ? e
                : new AlertmanagerUnavailable("Alertmanager: " + e))
                .chain(r -> r.statusCode() >= 500
                        ? Uni.createFrom().failure(new AlertmanagerUnavailable(
                                "Alertmanager answered " + r.statusCode() + ": " + r.bodyAsString()))
                        : Uni.createFrom().item(r));
    }

    static Alert alert(JsonObject o) {
        JsonObject status = o.getJsonObject("status", new JsonObject());
        List<String> silencedBy = strings(status.getJsonArray("silencedBy"));
        List<String> inhibitedBy = strings(status.getJsonArray("inhibitedBy"));
        Alert.State state = !"suppressed".equals(status.getString("state")) ? Alert.State.FIRING
                : !silencedBy.isEmpty() ? Alert.State.SILENCED
                : !inhibitedBy.isEmpty() ? Alert.State.INHIBITED : Alert.State.SILENCED;
        return new Alert(o.getString("fingerprint"), state, map(o.getJsonObject("labels")),
                map(o.getJsonObject("annotations")), Instant.parse(o.getString("startsAt")), null, silencedBy);
    }

    static AlertSilence silence(JsonObject o) {
        List<AlertSilence.SilenceMatcher> ms = new ArrayList<>();
        for (Object m : o.getJsonArray("matchers", new JsonArray())) {
            JsonObject j = (JsonObject) m;
            ms.add(new AlertSilence.SilenceMatcher(j.getString("name"), j.getString("value"),
                    j.getBoolean("isRegex", false), j.getBoolean("isEqual", true)));
        }
        return new AlertSilence(o.getString("id"), ms, Instant.parse(o.getString("startsAt")),
                Instant.parse(o.getString("endsAt")), o.getString("comment"), o.getString("createdBy"),
                o.getJsonObject("status", new JsonObject()).getString("state"));
    }

    static Map<String, String> map(JsonObject o) {
        Map<String, String> out = new HashMap<>();
        if (o != null) {
            o.forEach(e -> out.put(e.getKey(), String.valueOf(e.getValue())));
        }
        return out;
    }

    private static List<String> strings(JsonArray a) {
        List<String> out = new ArrayList<>();
        if (a != null) {
            a.forEach(x -> out.add(String.valueOf(x)));
        }
        return out;
    }
}
