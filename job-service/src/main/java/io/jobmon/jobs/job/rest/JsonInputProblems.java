package io.jobmon.jobs.job.rest;

import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import io.jobmon.contracts.problem.ProblemMappers;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * quarkus-rest-jackson maps {@link MismatchedInputException} (unknown field, unknown enum value, wrong type) itself,
 * more specifically than the suite's {@link ProblemMappers}; this hands it back to the suite's table so the 400 is a
 * problem body naming the field.
 */
public class JsonInputProblems {

    private final ProblemMappers problems = new ProblemMappers();

    @ServerExceptionMapper(priority = 1)
    public Response mismatchedInput(MismatchedInputException e, UriInfo uri) {
        return problems.json(e, uri);
    }
}
