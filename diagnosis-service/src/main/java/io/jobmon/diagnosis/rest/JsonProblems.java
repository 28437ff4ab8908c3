package io.jobmon.diagnosis.rest;

import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import io.jobmon.contracts.problem.ProblemMappers;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * A JSON body with a value of the wrong type or form (e.g. {@code "from": "last tuesday"}) is a 400 problem naming
 * the field. Quarkus REST has a built-in mapper for exactly {@link MismatchedInputException} that answers plain
 * JSON, and it wins over the shared mapper of its supertype; this one hands it back to the shared table.
 */
public class JsonProblems {

    private final ProblemMappers shared = new ProblemMappers();

    @ServerExceptionMapper
    public Response mismatchedInput(MismatchedInputException e, UriInfo uri) {
        return shared.json(e, uri);
    }
}
