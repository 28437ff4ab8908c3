package io.jobmon.logs.chunk;

import io.jobmon.logs.config.LogsConfig;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import java.time.Instant;
import java.time.LocalDate;
import org.jboss.logging.Logger;

/**
 * The {@link ChunkStore} of {@code jobmon.logs.chunk-store}: {@code postgres} ({@link PgChunkStore}) or {@code s3}
 * ({@link S3ChunkStore}), and the sweep of the latter's orphan bodies: the last two days every
 * {@code s3.sweep-every}, every day once a day after retention ran.
 */
@ApplicationScoped
public class ChunkStores {

    private static final Logger LOG = Logger.getLogger(ChunkStores.class);

    @Produces
    @ApplicationScoped
    ChunkStore store(Pool pool, LogsConfig config) {
        return switch (config.chunkStore()) {
            case "postgres" -> new PgChunkStore(pool);
            case "s3" -> new S3ChunkStore(pool, config.s3());
            default -> throw new IllegalStateException("jobmon.logs.chunk-store is postgres or s3, not " + config.chunkStore());
        };
    }

    void close(@Disposes ChunkStore store) throws Exception {
        if (store instanceof AutoCloseable c) {
            c.close();
        }
    }

    @ApplicationScoped
    static class Sweep {

        private final ChunkStore store;
        private final LogsConfig config;

        Sweep(ChunkStore store, LogsConfig config) {
            this.store = store;
            this.config = config;
        }

        @Scheduled(every = "${jobmon.logs.s3.sweep-every:1h}", delayed = "1m",
                concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
                skipExecutionIf = PostgresStore.class)
        Uni<Void> recent() {
            return sweep(ChunkPartitions.day(Instant.now()).minusDays(1));
        }

        @Scheduled(cron = "0 47 1 * * ?", timeZone = "UTC", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
                skipExecutionIf = PostgresStore.class)
        Uni<Void> all() {
            return sweep(null);
        }

        private Uni<Void> sweep(LocalDate since) {
            return store.sweepOrphans(config.s3().orphanGrace(), since)
                    .onFailure().invoke(e -> LOG.warnf("orphan sweep of chunk bodies failed: %s", e.toString()))
                    .onFailure().recoverWithNull().replaceWithVoid();
        }
    }

    /** Skips the sweeps when PostgreSQL holds the bodies (nothing to sweep). */
    @ApplicationScoped
    static class PostgresStore implements Scheduled.SkipPredicate {

        private final LogsConfig config;

        PostgresStore(LogsConfig config) {
            this.config = config;
        }

        @Override
        public boolean test(io.quarkus.scheduler.ScheduledExecution execution) {
            return !"s3".equals(config.chunkStore());
        }
    }
}
