package io.jobmon.metrics.store;

import io.jobmon.metrics.config.MetricsConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;

/** The {@link SeriesStore} of {@code jobmon.metrics.storage}: builtin (PostgreSQL) or prometheus (ADR 0036). */
@ApplicationScoped
public class SeriesStores {

    @Produces
    @ApplicationScoped
    SeriesStore store(MetricsConfig config, Instance<PgSeriesStore> builtin, Instance<PromSeriesStore> prometheus) {
        if (config.storage().engine() != MetricsConfig.Engine.PROMETHEUS) {
            return builtin.get();
        }
        if (config.prometheus().url().isEmpty()) {
            throw new IllegalStateException("jobmon.metrics.storage=prometheus needs jobmon.metrics.prometheus.url");
        }
        return prometheus.get();
    }

    /** Whether samples go to a Prometheus-compatible engine (no head blocks, chunks, compaction nor retention here). */
    public static boolean external(MetricsConfig config) {
        return config.storage().engine() == MetricsConfig.Engine.PROMETHEUS;
    }
}
