package io.jobmon.diagnosis.access;

import io.jobmon.contracts.readmodel.JobAccessStore;
import io.jobmon.contracts.readmodel.JobGuard;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

/** The job-access read model of {@code jobmon.job.changes} (contracts' readmodel) over {@code job_access}. */
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
