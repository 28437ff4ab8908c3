package io.jobmon.jobs.job.rest;

import io.jobmon.contracts.http.HttpFilters;
import io.jobmon.contracts.problem.Problem;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** A body over {@code quarkus.http.limits.max-body-size} is refused with 413 as a problem body, not plain text. */
@ApplicationScoped
public class BodyLimitProblem {

    void register(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE + 1).failureHandler(rc -> {
            if (rc.statusCode() == 413 && !rc.response().headWritten()) {
                HttpFilters.writeProblem(rc, new Problem(Problem.TYPE_BASE + "payload-too-large", "Payload Too Large",
                        413, "the request body is larger than this service accepts", null, null, null));
            } else {
                rc.next();
            }
        });
    }
}
