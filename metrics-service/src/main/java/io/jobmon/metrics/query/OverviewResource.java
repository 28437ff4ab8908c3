package io.jobmon.metrics.query;

import io.jobmon.contracts.access.Caller;
import io.jobmon.contracts.access.CallerFactory;
import io.jobmon.metrics.scrape.TargetsResource;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Admins: their tenant's overview per cluster and GPU pool over a time range (default the last 24 hours). */
@Path("/api/v1/metrics/overview")
@Tag(name = "metrics")
@Produces(MediaType.APPLICATION_JSON)
public class OverviewResource {

    private final OverviewService overview;
    private final JsonWebToken token;

    public OverviewResource(OverviewService overview, JsonWebToken token) {
        this.overview = overview;
        this.token = token;
    }

    @GET
    @Operation(summary = "GPUs total/allocated/idle, jobs pending/running, scheduling latency p50/p99, failure rate")
    public Uni<Overview> overview(@QueryParam("from") String from, @QueryParam("to") String to) {
        Caller caller = CallerFactory.fromToken(token);
        TargetsResource.requireAdmin(caller, "metrics.overview-admins-only");
        Instant now = Instant.now();
        ChartParams p = new ChartParams(List.of(), ChartParams.time("from", from), ChartParams.time("to", to), 0, 1000,
                GroupBy.JOB, Aggregation.AVG);
        Instant[] range = p.range(now.minus(Duration.ofDays(1)), now);
        return overview.overview(caller.tenant(), range[0], range[1], now);
    }
}
