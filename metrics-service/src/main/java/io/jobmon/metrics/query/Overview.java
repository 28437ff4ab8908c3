package io.jobmon.metrics.query;

import org.eclipse.microprofile.openapi.annotations.media.Schema;
import java.time.Instant;
import java.util.List;

/**
 * The platform overview of a tenant, per cluster and GPU pool: GPUs in the pool (seen reporting in the range),
 * allocated to the tenant's running jobs, idle among those (under the threshold for the idle window), jobs
 * pending and running now; scheduling latency percentiles of jobs started in the range and the failure rate of
 * jobs that ended in it.
 */
@Schema(name = "MetricsOverview")
public record Overview(String tenant, Instant from, Instant to, List<Pool> pools) {

    /** One cluster and pool. */
    @Schema(name = "PoolOverview")
    public record Pool(String cluster, String pool, int gpusTotal, int gpusAllocated, int gpusIdle, int jobsPending,
            int jobsRunning, int jobsStarted, Double schedulingLatencyP50Seconds, Double schedulingLatencyP99Seconds,
            int jobsFinished, int jobsFailed, Double failureRate) {
    }
}
