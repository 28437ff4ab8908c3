package io.jobmon.contracts.readmodel;

import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

/**
 * The job-access read model's beans for every service with a database: the store on the service's pool (its
 * {@code job_access} table, found through {@code search_path}) and the guard resources call.
 */
@ApplicationScoped
public class AccessWiring {

    @Produces
    @ApplicationScoped
    JobAccessStore jobAccessStore(Pool pool) {
        return new JobAccessStore(pool);
    }

    @Produces
    @ApplicationScoped
    JobGuard jobGuard(JobAccessStore store) {
        return new JobGuard(store);
    }
}
