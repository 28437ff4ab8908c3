package io.jobmon.diagnosis.evidence;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/**
 * event-ingest-service: the job's Kubernetes events in time order, with those of the nodes its pods ran on, a page
 * ({@code limit} 1..500) at a time (event-ingest-service README).
 */
@RegisterRestClient(configKey = "event-ingest-service")
@Path("/api/v1/jobs/{id}/events")
@Produces(MediaType.APPLICATION_JSON)
public interface EventServiceApi {

    @GET
    JsonNode events(@PathParam("id") String id, @QueryParam("from") String from, @QueryParam("to") String to,
            @QueryParam("limit") int limit, @QueryParam("cursor") String cursor,
            @HeaderParam("Authorization") String authorization);
}
