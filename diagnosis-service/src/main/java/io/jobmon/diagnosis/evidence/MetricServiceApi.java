package io.jobmon.diagnosis.evidence;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/**
 * metrics-service: the job's series by catalogue name ({@code metric}, repeatable), per {@code groupBy}, at a
 * {@code step} ({@code 15s}, {@code 60}; null: the finest stored, at most 1,000 points) (metrics-service README).
 */
@RegisterRestClient(configKey = "metrics-service")
@Path("/api/v1/jobs/{id}/metrics")
@Produces(MediaType.APPLICATION_JSON)
public interface MetricServiceApi {

    @GET
    JsonNode metrics(@PathParam("id") String id, @QueryParam("metric") List<String> metrics,
            @QueryParam("from") String from, @QueryParam("to") String to, @QueryParam("step") String step,
            @QueryParam("groupBy") String groupBy, @HeaderParam("Authorization") String authorization);
}
