package io.jobmon.logs.follow;

import io.jobmon.contracts.access.Caller;
import io.jobmon.contracts.i18n.Text;
import io.jobmon.contracts.problem.ApiException;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Set;

/**
 * Stream tickets (ADR 0027): 32 random bytes (base64url), standing for the caller who asked, for one job's follow,
 * once, until they expire. Stored in PostgreSQL as their SHA-256 (any replica redeems them); redeemed with one
 * conditional update, so two requests with the same ticket never both get in.
 */
@ApplicationScoped
public class StreamTicketStore {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String ISSUE = "INSERT INTO stream_ticket (hash, job_id, tenant, username, groups, roles, expires_at)"
            + " VALUES ($1, $2, $3, $4, $5, $6, $7)";
    private static final String REDEEM = "UPDATE stream_ticket SET used_at = now() WHERE hash = $1 AND job_id = $2"
            + " AND used_at IS NULL AND expires_at > now() RETURNING tenant, username, groups, roles";
    private static final String OTHER_JOB = "SELECT 1 FROM stream_ticket WHERE hash = $1 AND job_id <> $2";
    private static final String FORGET = "DELETE FROM stream_ticket WHERE expires_at < now() - interval '10 minutes'";

    private final SecureRandom random = new SecureRandom();
    private final Pool pool;

    public StreamTicketStore(Pool pool) {
        this.pool = pool;
    }

    /** A ticket just issued: its text (never stored, never logged) and when it expires. */
    public record Issued(String ticket, Instant expiresAt) {
    }

    public Uni<Issued> issue(Caller caller, String jobId, Duration ttl) {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        String ticket = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        Instant expires = Instant.now().plus(ttl).truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        Tuple args = Tuple.tuple().addValue(hash(ticket)).addValue(jobId).addValue(caller.tenant()).addValue(caller.user())
                .addValue(caller.groups().toArray(String[]::new)).addValue(caller.roles().toArray(String[]::new))
                .addValue(expires.atOffset(ZoneOffset.UTC));
        return pool.preparedQuery(ISSUE).execute(args).replaceWith(new Issued(ticket, expires));
    }

    /**
     * The caller the ticket stands for, once. Worker threads only.
     *
     * @throws ApiException 404 for a ticket of another job (as a job the caller may not see), 401 for one unknown,
     *     expired or already used
     */
    public Caller redeem(String ticket, String jobId) {
        byte[] h = hash(ticket);
        RowSet<Row> rows = pool.preparedQuery(REDEEM).execute(Tuple.of(h, jobId)).await().atMost(WAIT);
        if (rows.size() == 1) {
            Row r = rows.iterator().next();
            return new Caller(r.getString("username"), r.getString("tenant"), Set.of(r.getArrayOfStrings("groups")),
                    Set.of(r.getArrayOfStrings("roles")));
        }
        if (pool.preparedQuery(OTHER_JOB).execute(Tuple.of(h, jobId)).await().atMost(WAIT).size() > 0) {
            throw ApiException.notFound(Text.of("problem.not-found.job", jobId));
        }
        throw ApiException.of(401, "unauthorized", Text.of("logs.ticket-invalid"));
    }

    @Scheduled(every = "5m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> forgetExpired() {
        return pool.query(FORGET).execute().onFailure().recoverWithNull().replaceWithVoid();
    }

    static byte[] hash(String ticket) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(ticket.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
