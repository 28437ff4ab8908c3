package io.jobmon.metrics.store;

import io.jobmon.metrics.store.codec.Points;
import io.jobmon.metrics.store.codec.Rollups;
import io.smallrye.mutiny.Uni;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Where series live. The embedded default keeps them in PostgreSQL ({@link PgSeriesStore}); a
 * Prometheus-compatible engine (Prometheus, VictoriaMetrics, Thanos, Mimir) can implement the same through its
 * series and query_range APIs ({@link PromSeriesStore}, {@code jobmon.metrics.storage=prometheus}), while attribution to jobs and the per-job summaries stay in jobmon.
 */
public interface SeriesStore {

    /** The series of these metrics on these nodes (all of them, with or without pod labels). */
    Uni<List<SeriesRef>> onNodes(Collection<String> nodes, Collection<String> metrics);

    /**
     * A job's candidate series in one lookup, found by what this store's database knows of the job (its pods and
     * namespace, the nodes it ran on): {@code podMetrics} labelled with one of its pods (dcgm-exporter's pod mapping),
     * then {@code nodeMetrics} on one of its nodes (all of them, with or without pod labels); a series may come twice.
     * Found by the job's id, the lookup need not wait for the job's facts and intervals.
     */
    Uni<List<SeriesRef>> ofJob(String jobId, Collection<String> podMetrics, Collection<String> nodeMetrics);

    /** Raw samples per series id within [from, to), sorted, one per timestamp. */
    Uni<Map<Long, Points>> raw(List<SeriesRef> series, long fromMs, long toMs);

    /** Rollups ({@link Resolution#MINUTE} or {@link Resolution#HOUR}) per series id with buckets in [from, to). */
    Uni<Map<Long, Rollups>> rollups(List<SeriesRef> series, Resolution resolution, long fromMs, long toMs);

    /**
     * Rollups for a chart whose step is {@code stepMs} (a multiple of the resolution's bucket, its buckets aligned to
     * it): a store may answer in buckets of the step (an engine computes them where the data is); by default the
     * resolution's own buckets, which the chart folds into its steps.
     */
    default Uni<Map<Long, Rollups>> rollups(List<SeriesRef> series, Resolution resolution, long stepMs, long fromMs,
            long toMs) {
        return rollups(series, resolution, fromMs, toMs);
    }

    /** A GPU seen reporting in a range: where it is, the cluster and pool its exporter names (null: none). */
    record GpuPresent(String node, String gpu, String cluster, String pool) {
    }

    /**
     * The GPUs reporting {@code DCGM_FI_DEV_GPU_UTIL} within [from, to), each once (a labelled cluster and pool
     * preferred): the overview's totals.
     */
    Uni<List<GpuPresent>> gpusPresent(long fromMs, long toMs);
}
