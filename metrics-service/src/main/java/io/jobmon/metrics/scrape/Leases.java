package io.jobmon.metrics.scrape;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

/**
 * Leases in PostgreSQL, judged by the database's clock (event-ingest's watcher leases, for many names at once):
 * a holder takes a name when it is free or expired and extends what it holds; the live replicas renew a
 * heartbeat so that each can take its fair share of the scrape targets.
 */
@ApplicationScoped
public class Leases {

    private static final String ACQUIRE = "INSERT INTO lease AS l (name, holder, expires_at)"
            + " SELECT n, $2, now() + make_interval(secs => $3) FROM unnest($1::text[]) AS n"
            + " ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at"
            + " WHERE l.holder = EXCLUDED.holder OR l.expires_at < now() RETURNING name";
    private static final String HELD_BY_OTHERS = "SELECT name FROM lease WHERE holder <> $1 AND expires_at >= now()";
    private static final String RELEASE = "DELETE FROM lease WHERE holder = $1 AND name = ANY($2::text[])";
    private static final String BEAT = "INSERT INTO replica (holder, expires_at) VALUES ($1, now() + make_interval(secs => $2))"
            + " ON CONFLICT (holder) DO UPDATE SET expires_at = EXCLUDED.expires_at";
    private static final String LIVE = "SELECT count(*) AS n FROM replica WHERE expires_at >= now() OR holder = $1";

    private final Pool pool;

    public Leases(Pool pool) {
        this.pool = pool;
    }

    /** Takes or extends these names for {@code duration}; returns the ones this holder now has. */
    public Uni<Set<String>> acquire(Collection<String> names, String holder, Duration duration) {
        if (names.isEmpty()) {
            return Uni.createFrom().item(Set.of());
        }
        return pool.preparedQuery(ACQUIRE).execute(Tuple.of(names.toArray(String[]::new), holder,
                duration.toMillis() / 1000.0)).map(Leases::names);
    }

    /** The names other live holders have. */
    public Uni<Set<String>> heldByOthers(String holder) {
        return pool.preparedQuery(HELD_BY_OTHERS).execute(Tuple.of(holder)).map(Leases::names);
    }

    public Uni<Void> release(Collection<String> names, String holder) {
        if (names.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return pool.preparedQuery(RELEASE).execute(Tuple.of(holder, names.toArray(String[]::new))).replaceWithVoid();
    }

    /** Announces this replica alive for {@code duration}; returns the number of live replicas. */
    public Uni<Integer> heartbeat(String holder, Duration duration) {
        return pool.preparedQuery(BEAT).execute(Tuple.of(holder, duration.toMillis() / 1000.0))
                .chain(() -> pool.preparedQuery(LIVE).execute(Tuple.of(holder)))
                .map(rows -> rows.iterator().next().getLong("n").intValue());
    }

    public Uni<Void> leave(String holder) {
        return pool.preparedQuery("DELETE FROM replica WHERE holder = $1").execute(Tuple.of(holder))
                .chain(() -> pool.preparedQuery("DELETE FROM lease WHERE holder = $1").execute(Tuple.of(holder)))
                .replaceWithVoid();
    }

    private static Set<String> names(io.vertx.mutiny.sqlclient.RowSet<Row> rows) {
        Set<String> out = new HashSet<>();
        rows.forEach(r -> out.add(r.getString("name")));
        return out;
    }
}
