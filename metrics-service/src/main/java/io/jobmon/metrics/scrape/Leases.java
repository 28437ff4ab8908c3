package io.jobmon.metrics.scrape;

import io.jobmon.contracts.lease.LeaseTable;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Collection;
import java.util.Set;

/**
 * The scrape targets' leases in PostgreSQL ({@code lease}, contracts' {@link LeaseTable}, judged by the database's
 * clock): a holder takes a target when it is free or expired and extends what it holds; the live replicas renew a
 * heartbeat so that each can take its fair share of the scrape targets.
 */
@ApplicationScoped
public class Leases {

    private static final String BEAT = "INSERT INTO replica (holder, expires_at) VALUES ($1, now() + make_interval(secs => $2))"
            + " ON CONFLICT (holder) DO UPDATE SET expires_at = EXCLUDED.expires_at";
    private static final String LIVE = "SELECT count(*) AS n FROM replica WHERE expires_at >= now() OR holder = $1";

    private final Pool pool;
    private final LeaseTable leases;

    public Leases(Pool pool) {
        this.pool = pool;
        this.leases = new LeaseTable(pool, "lease", "name");
    }

    /** Takes or extends these names for {@code duration}; returns the ones this holder now has. */
    public Uni<Set<String>> acquire(Collection<String> names, String holder, Duration duration) {
        return leases.acquire(names, holder, duration);
    }

    /** The names other live holders have. */
    public Uni<Set<String>> heldByOthers(String holder) {
        return leases.heldByOthers(holder);
    }

    public Uni<Void> release(Collection<String> names, String holder) {
        return leases.release(names, holder);
    }

    /** Announces this replica alive for {@code duration}; returns the number of live replicas. */
    public Uni<Integer> heartbeat(String holder, Duration duration) {
        return pool.preparedQuery(BEAT).execute(Tuple.of(holder, duration.toMillis() / 1000.0))
                .chain(() -> pool.preparedQuery(LIVE).execute(Tuple.of(holder)))
                .map(rows -> rows.iterator().next().getLong("n").intValue());
    }

    public Uni<Void> leave(String holder) {
        return pool.preparedQuery("DELETE FROM replica WHERE holder = $1").execute(Tuple.of(holder))
                .chain(() -> leases.releaseAll(holder));
    }
}
