package io.jobmon.jobs.lookup;

import io.jobmon.contracts.api.Limits;
import io.jobmon.contracts.api.Page;
import io.jobmon.contracts.problem.ApiException;
import io.jobmon.contracts.problem.Problem.FieldError;
import io.jobmon.jobs.job.rest.CurrentCaller;
import io.jobmon.jobs.job.model.ListQuery;
import io.jobmon.jobs.job.service.ListQueryParser;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The lookups a page builder needs for every filter and form: clusters with their queues, the queues the caller
 * may submit to, project groups, tags in use, and the tenant's users for the share dialog.
 */
@Path("/api/v1")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "lookups")
public class LookupResource {

    /** What {@code q} and the cluster and region filters may look like. */
    static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._@-]{0,127}");

    private final LookupService lookups;
    private final CurrentCaller caller;

    public LookupResource(LookupService lookups, CurrentCaller caller) {
        this.lookups = lookups;
        this.caller = caller;
    }

    @GET
    @Path("/clusters")
    @Operation(summary = "Clusters with their region, type and queues (GPU models, limits, who may use each)")
    public Page<LookupViews.Cluster> clusters() {
        return Page.last(lookups.clusters(caller.get()));
    }

    @GET
    @Path("/queues")
    @Operation(summary = "The queues the caller may submit to, optionally of one cluster or region")
    public Page<LookupViews.SubmittableQueue> queues(@QueryParam("cluster") String cluster,
            @QueryParam("region") String region) {
        List<FieldError> errors = new ArrayList<>();
        String c = name("cluster", cluster, errors);
        String r = name("region", region, errors);
        failOn(errors);
        return Page.last(lookups.queues(caller.get(), c, r));
    }

    @GET
    @Path("/projects")
    @Operation(summary = "The caller's project groups (an admin also gets the other projects of the tenant's jobs)")
    public Uni<Page<LookupViews.Project>> projects() {
        return lookups.projects(caller.get()).map(Page::last);
    }

    @GET
    @Path("/tags")
    @Operation(summary = "Tags in use in the caller's visible jobs (or a scope's), most used first, with counts")
    public Uni<Page<LookupViews.TagCount>> tags(
            @Parameter(description = "whose jobs: mine, shared, project, all (admins); default every visible job",
                    schema = @Schema(enumeration = {"mine", "shared", "project", "all"}))
            @QueryParam("scope") String scope,
            @Parameter(description = "1..500, default 50", schema = @Schema(type = SchemaType.INTEGER,
                    minimum = "1", maximum = "500", defaultValue = "50")) @QueryParam("limit") String limit) {
        List<FieldError> errors = new ArrayList<>();
        ListQuery.Scope s = ListQueryParser.enumOf(ListQuery.Scope.class, scope, null, "scope", errors);
        int n = Limits.parse(limit, errors);
        failOn(errors);
        return lookups.tags(caller.get(), s, n).map(Page::last);
    }

    @GET
    @Path("/users")
    @Operation(summary = "Users of the caller's tenant known to jobmon (everyone who signed in, every job owner), "
            + "by name; q matches the start of the name, any case (the share dialog)")
    public Uni<Page<LookupViews.User>> users(@Parameter(description = "start of the user name") @QueryParam("q") String q,
            @Parameter(description = "1..500, default 50", schema = @Schema(type = SchemaType.INTEGER,
                    minimum = "1", maximum = "500", defaultValue = "50")) @QueryParam("limit") String limit,
            @Parameter(description = "nextCursor of the previous page") @QueryParam("cursor") String cursor) {
        List<FieldError> errors = new ArrayList<>();
        String prefix = name("q", q, errors);
        int n = Limits.parse(limit, errors);
        failOn(errors);
        return lookups.users(caller.get(), prefix, cursor, n);
    }

    private static String name(String field, String raw, List<FieldError> errors) {
        if (raw == null || raw.isBlank()) {
            return null;
        }
        if (!NAME.matcher(raw).matches()) {
            errors.add(FieldError.of(field, "list.identifier"));
            return null;
        }
        return raw;
    }

    private static void failOn(List<FieldError> errors) {
        if (!errors.isEmpty()) {
            throw ApiException.badRequest(errors);
        }
    }
}
