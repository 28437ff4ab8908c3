package io.jobmon.metrics.jobs;

import io.jobmon.contracts.readmodel.JobAccessStore;
import io.jobmon.contracts.readmodel.JobGuard;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

/** The shared job-access read model (contracts), on this service's schema (found through the search path). */
@ApplicationScoped
public class AccessWiring {

    @Produces
    @ApplicationScoped
    JobGuard jobGuard(Pool pool) {
        return new JobGuard(new JobAccessStore(pool));
    }
}
