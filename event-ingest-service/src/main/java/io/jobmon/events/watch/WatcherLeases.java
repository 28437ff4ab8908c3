package io.jobmon.events.watch;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;

/**
 * The per-cluster watcher leases in PostgreSQL: a holder takes a cluster's lease when it is free or expired and
 * extends it while it holds it. Expiry is judged by the database's clock.
 */
@ApplicationScoped
public class WatcherLeases {

    private static final String ACQUIRE = "INSERT INTO watcher_lease AS l (cluster, holder, expires_at)"
            + " VALUES ($1, $2, now() + make_interval(secs => $3)) ON CONFLICT (cluster) DO UPDATE"
            + " SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at"
            + " WHERE l.holder = EXCLUDED.holder OR l.expires_at < now() RETURNING holder";
    private static final String RELEASE = "DELETE FROM watcher_lease WHERE cluster = $1 AND holder = $2";

    private final Pool pool;

    public WatcherLeases(Pool pool) {
        this.pool = pool;
    }

    /** Takes or extends the lease of {@code cluster} for {@code duration}; false when another holder has it. */
    public Uni<Boolean> acquire(String cluster, String holder, Duration duration) {
        return pool.preparedQuery(ACQUIRE).execute(Tuple.of(cluster, holder, duration.toMillis() / 1000.0))
                .map(rows -> rows.size() == 1);
    }

    /** Gives the lease up (on shutdown), so that another replica takes the cluster without waiting for expiry. */
    public Uni<Void> release(String cluster, String holder) {
        return pool.preparedQuery(RELEASE).execute(Tuple.of(cluster, holder)).replaceWithVoid();
    }
}
