package io.jobmon.metrics.jobs;

import io.jobmon.contracts.readmodel.JobAccessStore;
import io.jobmon.contracts.readmodel.JobGuard;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

/** The shared job-access read model (contracts), on this service's schema. */
@ApplicationScoped
public class AccessWiring {

    public static final String SCHEMA = "metrics";

    @Produces
    @ApplicationScoped
    JobAccessStore jobAccessStore(Pool pool) {
        return new JobAccessStore(pool, SCHEMA);
    }

    @Produces
    @ApplicationScoped
    JobGuard jobGuard(JobAccessStore store) {
        return new JobGuard(store);
    }
}
