package io.jobmon.metrics.alerts;

import io.jobmon.contracts.access.CallerFactory;
import io.jobmon.contracts.api.Page;
import io.jobmon.contracts.i18n.I18n;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The alerts the caller may see, firing (Alertmanager) and resolved (the webhook's history), newest first. */
@Path("/api/v1/alerts")
@Tag(name = "alerts")
@Produces(MediaType.APPLICATION_JSON)
public class AlertsResource {

    private final AlertsService alerts;
    private final AlertsConfig config;
    private final I18n i18n;
    private final JsonWebToken token;

    public AlertsResource(AlertsService alerts, AlertsConfig config, I18n i18n, JsonWebToken token) {
        this.alerts = alerts;
        this.config = config;
        this.i18n = i18n;
        this.token = token;
    }

    @GET
    @Operation(summary = "Alerts of the jobs the caller may view (admins: also their tenant's and node/platform alerts)")
    public Uni<Page<AlertViews.AlertView>> list(
            @Parameter(description = "firing (firing, silenced, inhibited), resolved or all (default)")
            @QueryParam("state") String state,
            @Parameter(description = "resolved alerts that ended at or after this time (default 24 h ago)")
            @QueryParam("since") String since,
            @QueryParam("limit") String limit, @QueryParam("cursor") String cursor) {
        AlertsService.Query q = AlertViews.query(state, since, limit, cursor, config.retentionDays(), Instant.now());
        var texts = i18n.forRequest();
        return alerts.list(CallerFactory.fromToken(token), null, q).map(p -> AlertViews.render(p, texts));
    }
}
