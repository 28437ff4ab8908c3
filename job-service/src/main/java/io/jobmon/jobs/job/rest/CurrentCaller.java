package io.jobmon.jobs.job.rest;

import io.jobmon.contracts.access.Caller;
import io.jobmon.contracts.access.CallerFactory;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.jwt.JsonWebToken;

/** The caller of the current request, from its validated bearer token. */
@ApplicationScoped
public class CurrentCaller {

    private final JsonWebToken token;

    public CurrentCaller(JsonWebToken token) {
        this.token = token;
    }

    public Caller get() {
        return CallerFactory.fromToken(token);
    }
}
