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

/** metrics-service: the job's series per GPU at full resolution (api.md, Metrics). */
@RegisterRestClient(configKey = "metrics-service")
@Path("/api/v1/jobs/{id}/metrics")
@Produces(MediaType.APPLICATION_JSON)
public interface MetricServiceApi {

    @GET
    JsonNode metrics(@PathParam("id") String id, @QueryParam("metric") List<String> metrics,
            @QueryParam("from") String from, @QueryParam("to") String to,
            @QueryParam("resolution") String resolution, @QueryParam("groupBy") String groupBy,
            @HeaderParam("Authorization") String authorization);
}
