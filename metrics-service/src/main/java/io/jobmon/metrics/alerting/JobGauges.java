package io.jobmon.metrics.alerting;

import io.jobmon.metrics.config.MetricsConfig;
import io.jobmon.metrics.jobs.JobInfo;
import io.jobmon.metrics.jobs.JobRepository;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * The per-job gauges the shipped alert rules read on /q/metrics, for running jobs only (bounded cardinality):
 * {@code jobmon_job_gpu_utilization_percent}, {@code jobmon_job_gpus_idle} and {@code jobmon_job_gpus}, labelled
 * {@code job_id, owner, queue, cluster, tenant}. Every replica exposes the same figures (they come from the
 * store): rules aggregate with {@code max by (job_id, ...)}.
 */
@ApplicationScoped
public class JobGauges {

    private static final Logger LOG = Logger.getLogger(JobGauges.class);
    static final List<String> RUNNING = List.of("RUNNING", "STOPPING", "PARTIALLY_PENDING");

    /** What the gauges of one job read. */
    static final class Values {
        volatile double utilization = Double.NaN;
        volatile double idle;
        volatile double gpus;
    }

    private final JobRepository jobs;
    private final GpuState state;
    private final MeterRegistry registry;
    private final Map<String, Values> values = new ConcurrentHashMap<>();
    private final Map<String, List<Meter>> meters = new ConcurrentHashMap<>();

    public JobGauges(JobRepository jobs, GpuState state, MeterRegistry registry, MetricsConfig config) {
        this.jobs = jobs;
        this.state = state;
        this.registry = registry;
    }

    @Scheduled(every = "${jobmon.metrics.jobs.gauges-every:30s}", delayed = "15s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> scheduled() {
        return refresh(Instant.now()).onFailure().invoke(e -> LOG.warnf("job gauges failed: %s", e.getMessage()))
                .onFailure().recoverWithNull();
    }

    public Uni<Void> refresh(Instant now) {
        return jobs.byStatus(null, RUNNING).chain(running -> {
            Set<String> live = new HashSet<>();
            running.forEach(j -> live.add(j.jobId()));
            for (String id : Set.copyOf(values.keySet())) {
                if (!live.contains(id)) {
                    values.remove(id);
                    meters.remove(id).forEach(registry::remove);
                }
            }
            return Multi.createFrom().iterable(running).onItem()
                    .transformToUni(j -> state.of(j, now).invoke(s -> update(j, s))
                            .onFailure().recoverWithNull())
                    .merge(4).collect().last().replaceWithVoid();
        });
    }

    private void update(JobInfo job, GpuState.Now now) {
        Values v = values.computeIfAbsent(job.jobId(), id -> register(job));
        v.utilization = now.utilization() == null ? Double.NaN : now.utilization();
        v.idle = now.idle();
        v.gpus = now.gpus();
    }

    private Values register(JobInfo job) {
        Values v = new Values();
        Tags tags = Tags.of("job_id", job.jobId(), "owner", nn(job.owner()), "queue", nn(job.queue()),
                "cluster", nn(job.cluster()), "tenant", nn(job.tenant()));
        meters.put(job.jobId(), List.of(
                Gauge.builder("jobmon.job.gpu.utilization.percent", v, x -> x.utilization).tags(tags)
                        .description("a running job's GPU utilisation, averaged over its GPUs (latest samples)")
                        .register(registry),
                Gauge.builder("jobmon.job.gpus.idle", v, x -> x.idle).tags(tags)
                        .description("a running job's GPUs under the idle threshold for the whole idle window")
                        .register(registry),
                Gauge.builder("jobmon.job.gpus", v, x -> x.gpus).tags(tags)
                        .description("a running job's GPUs").register(registry)));
        return v;
    }

    private static String nn(String s) {
        return s == null ? "" : s;
    }
}
