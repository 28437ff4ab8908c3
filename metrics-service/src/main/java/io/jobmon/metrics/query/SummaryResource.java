package io.jobmon.metrics.query;

import io.jobmon.contracts.access.CallerFactory;
import io.jobmon.contracts.access.Permission;
import io.jobmon.contracts.readmodel.JobGuard;
import io.jobmon.metrics.jobs.JobRepository;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** A job's GPU summary: the one written when it ended, else computed now. 404 when the caller may not see it. */
@Path("/api/v1/jobs/{id}/metrics/summary")
@Tag(name = "metrics")
@Produces(MediaType.APPLICATION_JSON)
public class SummaryResource {

    private final JobGuard guard;
    private final JobRepository jobs;
    private final SummaryService summaries;
    private final SummaryJob stored;
    private final JsonWebToken token;

    public SummaryResource(JobGuard guard, JobRepository jobs, SummaryService summaries, SummaryJob stored,
            JsonWebToken token) {
        this.guard = guard;
        this.jobs = jobs;
        this.summaries = summaries;
        this.stored = stored;
        this.token = token;
    }

    @GET
    @Operation(summary = "avg/peak GPU utilisation, peak GPU memory, GPU-hours and idle GPU-hours, per pod")
    public Uni<Summary> summary(@PathParam("id") String id) {
        return guard.require(CallerFactory.fromToken(token), id, Permission.VIEW)
                .chain(access -> stored.stored(id))
                .chain(found -> found.isPresent() ? Uni.createFrom().item(found.get())
                        : jobs.find(id).chain(job -> summaries.compute(
                                job.orElseGet(() -> JobMetricsResource.unknownJob(id)), Instant.now(), false)));
    }
}
