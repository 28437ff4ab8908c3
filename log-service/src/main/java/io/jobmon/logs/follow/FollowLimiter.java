package io.jobmon.logs.follow;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;

/**
 * The per-user limit on open follows, across replicas: every open follow is a row ({@code follow_session}) its
 * replica keeps fresh; a user's rows are counted under a transaction-level advisory lock on the user, so two
 * replicas never both let the (limit+1)th in. Rows of a replica that died go stale and stop counting.
 */
@ApplicationScoped
public class FollowLimiter {

    static final String REPLICA = UUID.randomUUID().toString();
    private static final String LOCK = "SELECT pg_advisory_xact_lock(hashtext($1 || '/' || $2))";
    private static final String COUNT = "SELECT count(*) FROM follow_session WHERE tenant = $1 AND username = $2"
            + " AND heartbeat_at > now() - interval '45 seconds'";
    private static final String OPEN = "INSERT INTO follow_session (id, tenant, username, replica) VALUES ($1, $2, $3, $4)";
    private static final String CLOSE = "DELETE FROM follow_session WHERE id = $1";
    private static final String BEAT = "UPDATE follow_session SET heartbeat_at = now() WHERE replica = $1";
    private static final String FORGET = "DELETE FROM follow_session WHERE heartbeat_at < now() - interval '10 minutes'";

    private final Pool pool;

    public FollowLimiter(Pool pool) {
        this.pool = pool;
    }

    /** @return the session id, or null when the user already has {@code limit} follows open */
    public Uni<UUID> open(String tenant, String user, int limit) {
        UUID id = UUID.randomUUID();
        return pool.withTransaction(conn -> conn.preparedQuery(LOCK).execute(Tuple.of(tenant, user))
                .chain(() -> conn.preparedQuery(COUNT).execute(Tuple.of(tenant, user)))
                .chain(rows -> rows.iterator().next().getLong(0) >= limit ? Uni.createFrom().<UUID>nullItem()
                        : conn.preparedQuery(OPEN).execute(Tuple.of(id, tenant, user, REPLICA)).replaceWith(id)));
    }

    public Uni<Void> close(UUID id) {
        return pool.preparedQuery(CLOSE).execute(Tuple.of(id)).replaceWithVoid();
    }

    @Scheduled(every = "15s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> heartbeat() {
        return pool.preparedQuery(BEAT).execute(Tuple.of(REPLICA))
                .chain(() -> pool.query(FORGET).execute())
                .onFailure().recoverWithNull().replaceWithVoid();
    }
}
