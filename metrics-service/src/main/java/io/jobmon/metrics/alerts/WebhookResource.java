package io.jobmon.metrics.alerts;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.jobmon.contracts.access.CallerFactory;
import io.jobmon.contracts.i18n.Text;
import io.jobmon.contracts.problem.ApiException;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Alertmanager's webhook receiver (webhook JSON version 4): keeps when each alert fired and was resolved, for the
 * resolved alerts Alertmanager forgets. Service-to-service: the token must carry {@code jobmon.alerts.webhook-role}
 * (the monitoring stack's identity, OAuth2 client credentials in Alertmanager's {@code http_config}).
 */
@Path("/internal/v1/alerts/webhook")
@Tag(name = "alerts")
public class WebhookResource {

    /** Alertmanager's notification; fields jobmon does not read (groupKey, receiver, externalURL...) are ignored. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    @Schema(name = "AlertmanagerNotification", requiredProperties = {"version", "alerts"})
    public record Notification(String version, List<WebhookAlert> alerts) {
    }

    /** One alert of a notification. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    @Schema(name = "AlertmanagerWebhookAlert", requiredProperties = {"status", "labels", "startsAt", "fingerprint"})
    public record WebhookAlert(String status, Map<String, String> labels, Map<String, String> annotations,
            Instant startsAt, Instant endsAt, String fingerprint) {
    }

    private final AlertsService alerts;
    private final AlertsConfig config;
    private final JsonWebToken token;

    public WebhookResource(AlertsService alerts, AlertsConfig config, JsonWebToken token) {
        this.alerts = alerts;
        this.config = config;
        this.token = token;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    // Not in the OpenAPI document: the gateway does not route it and the console's client must not call it (api.md).
    @Operation(summary = "Alertmanager's webhook (version 4), service-to-service", hidden = true)
    @APIResponse(responseCode = "204", description = "stored")
    @APIResponse(responseCode = "400", description = "not a webhook notification of version 4 (problem)")
    @APIResponse(responseCode = "401", description = "no valid bearer token")
    @APIResponse(responseCode = "403", description = "the token lacks the webhook role (problem)")
    @APIResponse(responseCode = "503", description = "PostgreSQL is down; Alertmanager retries (problem, Retry-After)")
    public Uni<Response> receive(Notification body) {
        if (!CallerFactory.fromToken(token).roles().contains(config.webhookRole())) {
            throw ApiException.forbidden(Text.of("alerts.webhook-role", config.webhookRole()));
        }
        return alerts.received(parse(body)).map(x -> Response.noContent().build());
    }

    /** The notification's alerts; a 400 naming what is missing when it is not version 4's shape. */
    static List<Alert> parse(Notification body) {
        if (body == null || !"4".equals(body.version()) || body.alerts() == null) {
            throw ApiException.invalid("version", "alerts.not-webhook", "version 4 with alerts");
        }
        List<Alert> out = new ArrayList<>();
        for (int i = 0; i < body.alerts().size(); i++) {
            WebhookAlert a = body.alerts().get(i);
            if (a == null || a.fingerprint() == null || a.fingerprint().isBlank() || a.fingerprint().length() > 64
                    || a.startsAt() == null || a.labels() == null || a.labels().get("alertname") == null
                    || !("firing".equals(a.status()) || "resolved".equals(a.status()))) {
                throw ApiException.invalid("alerts[" + i + "]", "alerts.not-webhook",
                        "status, labels.alertname, startsAt, fingerprint");
            }
            boolean resolved = "resolved".equals(a.status());
            // a firing alert's endsAt is Alertmanager's zero time or the time it would resolve unrenewed: not an end
            Instant ends = resolved ? (a.endsAt() == null ? Instant.now() : a.endsAt()) : null;
            out.add(new Alert(a.fingerprint(), resolved ? Alert.State.RESOLVED : Alert.State.FIRING, a.labels(),
                    a.annotations(), a.startsAt(), ends, List.of()));
        }
        return out;
    }
}
