package io.jobmon.metrics.query;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;

/** Reads Xid events of nodes in a time range. */
@ApplicationScoped
public class XidEvents {

    /** One Xid event. */
    public record Event(String node, String gpu, long tsMs, int code, int count, String pod) {
    }

    private final Pool pool;

    public XidEvents(Pool pool) {
        this.pool = pool;
    }

    public Uni<List<Event>> onNodes(String[] nodes, long fromMs, long toMs) {
        return pool.preparedQuery("SELECT node, gpu, ts_ms, code, count, pod FROM xid_event WHERE node = ANY($1)"
                + " AND ts_ms >= $2 AND ts_ms < $3 ORDER BY ts_ms").execute(Tuple.of(nodes, fromMs, toMs)).map(rows -> {
                    List<Event> out = new ArrayList<>();
                    for (Row r : rows) {
                        out.add(new Event(r.getString("node"), r.getString("gpu"), r.getLong("ts_ms"),
                                r.getInteger("code"), r.getInteger("count"), r.getString("pod")));
                    }
                    return out;
                });
    }
}
