package io.jobmon.events.ingest;

import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.JobStatusChanged;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;

/**
 * The transactional outbox of {@code jobmon.job.status}: a transition is committed with the records that caused
 * it and published after the commit; a crash in between leaves it here for the next sweep.
 */
@ApplicationScoped
public class OutboxRepository {

    /** A transition waiting to be published: the CloudEvent as it goes on the wire. */
    public record Pending(long id, String jobId, String value) {
    }

    static final String SOURCE = "/jobmon/event-ingest-service";
    private static final String INSERT = "INSERT INTO events.status_outbox (job_id, payload)"
            + " SELECT j, p FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS x(j, p, o) ORDER BY o"
            + " RETURNING id, job_id, payload";
    private static final String DELETE = "DELETE FROM events.status_outbox WHERE id = ANY($1::bigint[])";
    private static final String STALE = "SELECT id, job_id, payload FROM events.status_outbox"
            + " WHERE created_at < now() - make_interval(secs => $1) ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED";

    private final Pool pool;

    public OutboxRepository(Pool pool) {
        this.pool = pool;
    }

    public Uni<List<Pending>> add(SqlConnection conn, List<JobStatusChanged> transitions) {
        if (transitions.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        String[] jobs = new String[transitions.size()];
        String[] values = new String[transitions.size()];
        for (int i = 0; i < jobs.length; i++) {
            JobStatusChanged t = transitions.get(i);
            jobs[i] = t.jobId();
            values[i] = CloudEvents.encode(SOURCE, JobStatusChanged.TYPE, t.jobId(), t);
        }
        return conn.preparedQuery(INSERT).execute(Tuple.of(jobs, values))
                .map(OutboxRepository::pending);
    }

    public Uni<Void> remove(SqlClient client, List<Pending> sent) {
        if (sent.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        Long[] ids = sent.stream().map(Pending::id).toArray(Long[]::new);
        return client.preparedQuery(DELETE).execute(Tuple.of((Object) ids)).replaceWithVoid();
    }

    /** Transitions older than {@code ageSeconds} that nobody published (their publisher died), locked for this sweep. */
    public Uni<List<Pending>> stale(SqlConnection conn, double ageSeconds, int limit) {
        return conn.preparedQuery(STALE).execute(Tuple.of(ageSeconds, limit)).map(OutboxRepository::pending);
    }

    public Pool pool() {
        return pool;
    }

    private static List<Pending> pending(Iterable<Row> rows) {
        List<Pending> out = new ArrayList<>();
        for (Row r : rows) {
            out.add(new Pending(r.getLong("id"), r.getString("job_id"), r.getString("payload")));
        }
        out.sort((a, b) -> Long.compare(a.id(), b.id()));
        return out;
    }
}
