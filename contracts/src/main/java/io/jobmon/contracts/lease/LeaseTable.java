package io.jobmon.contracts.lease;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * Named leases in a PostgreSQL table of the service's schema ({@code <key> TEXT PRIMARY KEY, holder TEXT,
 * expires_at TIMESTAMPTZ}), judged by the database's clock: a holder takes a name when it is free or expired and
 * extends what it holds; a release lets another replica take it without waiting for expiry (ADR 0012). Used for
 * event-ingest's per-cluster watchers and metrics' scrape targets.
 */
public final class LeaseTable {

    private final Pool pool;
    private final String acquire;
    private final String heldByOthers;
    private final String release;
    private final String releaseAll;

    /** @param table and {@code key}: the lease table and its name column (trusted identifiers, not user input) */
    public LeaseTable(Pool pool, String table, String key) {
        this.pool = pool;
        this.acquire = "INSERT INTO " + table + " AS l (" + key + ", holder, expires_at)"
                + " SELECT n, $2, now() + make_interval(secs => $3) FROM unnest($1::text[]) AS n"
                + " ON CONFLICT (" + key + ") DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at"
                + " WHERE l.holder = EXCLUDED.holder OR l.expires_at < now() RETURNING " + key + " AS name";
        this.heldByOthers = "SELECT " + key + " AS name FROM " + table + " WHERE holder <> $1 AND expires_at >= now()";
        this.release = "DELETE FROM " + table + " WHERE holder = $1 AND " + key + " = ANY($2::text[])";
        this.releaseAll = "DELETE FROM " + table + " WHERE holder = $1";
    }

    /** A holder name unique to this process: the host's name (a pod's, in Kubernetes) and a random UUID. */
    public static String newHolder() {
        String host = System.getenv("HOSTNAME");
        if (host == null || host.isBlank()) {
            try {
                host = InetAddress.getLocalHost().getHostName();
            } catch (IOException e) {
                host = "replica";
            }
        }
        return host + "/" + UUID.randomUUID();
    }

    /** Takes or extends these names for {@code duration}; returns the ones {@code holder} now has. */
    public Uni<Set<String>> acquire(Collection<String> names, String holder, Duration duration) {
        if (names.isEmpty()) {
            return Uni.createFrom().item(Set.of());
        }
        return pool.preparedQuery(acquire).execute(Tuple.of(names.toArray(String[]::new), holder,
                duration.toMillis() / 1000.0)).map(LeaseTable::names);
    }

    /** Takes or extends one name; false when another holder has it. */
    public Uni<Boolean> acquire(String name, String holder, Duration duration) {
        return acquire(List.of(name), holder, duration).map(held -> held.contains(name));
    }

    /** The names other holders have and have not let expire. */
    public Uni<Set<String>> heldByOthers(String holder) {
        return pool.preparedQuery(heldByOthers).execute(Tuple.of(holder)).map(LeaseTable::names);
    }

    /** Gives these names up, if {@code holder} has them. */
    public Uni<Void> release(Collection<String> names, String holder) {
        if (names.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return pool.preparedQuery(release).execute(Tuple.of(holder, names.toArray(String[]::new))).replaceWithVoid();
    }

    /** Gives up every name {@code holder} has (on shutdown). */
    public Uni<Void> releaseAll(String holder) {
        return pool.preparedQuery(releaseAll).execute(Tuple.of(holder)).replaceWithVoid();
    }

    private static Set<String> names(RowSet<Row> rows) {
        Set<String> out = new HashSet<>();
        rows.forEach(r -> out.add(r.getString("name")));
        return out;
    }
}
