package io.jobmon.metrics.alerts;

import io.jobmon.contracts.access.Caller;
import io.jobmon.contracts.access.CallerFactory;
import io.jobmon.contracts.access.Permission;
import io.jobmon.contracts.api.Page;
import io.jobmon.contracts.i18n.I18n;
import io.jobmon.contracts.readmodel.JobGuard;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** One job's alerts (its {@code job_id} label); 404 when the caller may not view the job. */
@Path("/api/v1/jobs/{id}/alerts")
@Tag(name = "alerts")
@Produces(MediaType.APPLICATION_JSON)
public class JobAlertsResource {

    private final AlertsService alerts;
    private final JobGuard guard;
    private final AlertsConfig config;
    private final I18n i18n;
    private final JsonWebToken token;

    public JobAlertsResource(AlertsService alerts, JobGuard guard, AlertsConfig config, I18n i18n, JsonWebToken token) {
        this.alerts = alerts;
        this.guard = guard;
        this.config = config;
        this.i18n = i18n;
        this.token = token;
    }

    @GET
    @Operation(summary = "The job's alerts, firing and resolved, newest first")
    public Uni<Page<AlertViews.AlertView>> list(@PathParam("id") String id,
            @Parameter(description = "firing (firing, silenced, inhibited), resolved or all (default)")
            @QueryParam("state") String state,
            @Parameter(description = "resolved alerts that ended at or after this time (default 24 h ago)")
            @QueryParam("since") String since,
            @QueryParam("limit") String limit, @QueryParam("cursor") String cursor) {
        Caller caller = CallerFactory.fromToken(token);
        AlertsService.Query q = AlertViews.query(state, since, limit, cursor, config.retentionDays(), Instant.now());
        var texts = i18n.forRequest();
        return guard.require(caller, id, Permission.VIEW).chain(job -> alerts.list(caller, id, q))
                .map(p -> AlertViews.render(p, texts));
    }
}
