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

/** job-service: the job's detail, its pods (a page at a time) and its fault-tolerance chain (job-service README). */
@RegisterRestClient(configKey = "job-service")
@Path("/api/v1/jobs/{id}")
@Produces(MediaType.APPLICATION_JSON)
public interface JobServiceApi {

    @GET
    JsonNode job(@PathParam("id") String id, @HeaderParam("Authorization") String authorization);

    @GET
    @Path("/pods")
    JsonNode pods(@PathParam("id") String id, @QueryParam("limit") int limit, @QueryParam("cursor") String cursor,
            @HeaderParam("Authorization") String authorization);

    @GET
    @Path("/attempts")
    JsonNode attempts(@PathParam("id") String id, @HeaderParam("Authorization") String authorization);
}
