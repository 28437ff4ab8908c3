package io.jobmon.diagnosis.access;

import io.jobmon.contracts.readmodel.JobAccessStore;
import io.jobmon.contracts.readmodel.JobGuard;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

/** The job-access read model of {@code jobmon.job.changes} (contracts' readmodel) over {@code diagnosis.job_access}. */
@ApplicationScoped
public class AccessWiring {

    public static final String SCHEMA = "diagnosis";

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
