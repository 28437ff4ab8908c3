package io.jobmon.events.watch;

import io.jobmon.contracts.lease.LeaseTable;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.List;

/**
 * The per-cluster watcher leases in PostgreSQL ({@code watcher_lease}, contracts' {@link LeaseTable}): a holder takes
 * a cluster's lease when it is free or expired and extends it while it holds it. Expiry is judged by the database's
 * clock.
 */
@ApplicationScoped
public class WatcherLeases {

    private final LeaseTable leases;

    public WatcherLeases(Pool pool) {
        this.leases = new LeaseTable(pool, "watcher_lease", "cluster");
    }

    /** Takes or extends the lease of {@code cluster} for {@code duration}; false when another holder has it. */
    public Uni<Boolean> acquire(String cluster, String holder, Duration duration) {
        return leases.acquire(cluster, holder, duration);
    }

    /** Gives the lease up (on shutdown), so that another replica takes the cluster without waiting for expiry. */
    public Uni<Void> release(String cluster, String holder) {
        return leases.release(List.of(cluster), holder);
    }
}
