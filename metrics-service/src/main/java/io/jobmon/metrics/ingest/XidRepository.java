package io.jobmon.metrics.ingest;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Xid events and the detection state, written in the batch's transaction. */
@ApplicationScoped
public class XidRepository {

    private static final String LOAD = "SELECT node, gpu, state_key, value FROM xid_state"
            + " WHERE (node, gpu) IN (SELECT * FROM unnest($1::text[], $2::text[]))";
    private static final String SAVE = "INSERT INTO xid_state AS s (node, gpu, state_key, value, ts_ms)"
            + " SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::float8[], $5::bigint[])"
            + " ON CONFLICT (node, gpu, state_key) DO UPDATE SET value = EXCLUDED.value, ts_ms = EXCLUDED.ts_ms";
    private static final String EVENTS = "INSERT INTO xid_event (node, gpu, ts_ms, code, count, pod, namespace)"
            + " SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::int[], $5::int[], $6::text[], $7::text[])"
            + " ON CONFLICT DO NOTHING";

    /** The stored state of these GPUs ({@code node, gpu} pairs). */
    public Uni<Map<XidDetector.StateKey, Double>> load(SqlConnection conn, Collection<String[]> gpus) {
        String[] nodes = gpus.stream().map(g -> g[0]).toArray(String[]::new);
        String[] ids = gpus.stream().map(g -> g[1]).toArray(String[]::new);
        return conn.preparedQuery(LOAD).execute(Tuple.of(nodes, ids)).map(rows -> {
            Map<XidDetector.StateKey, Double> out = new HashMap<>();
            for (Row r : rows) {
                out.put(new XidDetector.StateKey(r.getString("node"), r.getString("gpu"), r.getString("state_key")),
                        r.getDouble("value"));
            }
            return out;
        });
    }

    public Uni<Void> save(SqlConnection conn, Map<XidDetector.StateKey, Double> state, long tsMs,
            List<XidDetector.Event> events) {
        int n = state.size();
        String[] nodes = new String[n], gpus = new String[n], keys = new String[n];
        Double[] values = new Double[n];
        Long[] ts = new Long[n];
        int i = 0;
        for (Map.Entry<XidDetector.StateKey, Double> e : state.entrySet()) {
            nodes[i] = e.getKey().node();
            gpus[i] = e.getKey().gpu();
            keys[i] = e.getKey().key();
            values[i] = e.getValue();
            ts[i++] = tsMs;
        }
        Uni<Void> saved = n == 0 ? Uni.createFrom().voidItem() : conn.preparedQuery(SAVE)
                .execute(Tuple.tuple().addArrayOfString(nodes).addArrayOfString(gpus).addArrayOfString(keys)
                        .addArrayOfDouble(values).addArrayOfLong(ts)).replaceWithVoid();
        if (events.isEmpty()) {
            return saved;
        }
        int m = events.size();
        String[] en = new String[m], eg = new String[m], ep = new String[m], ens = new String[m];
        Long[] et = new Long[m];
        Integer[] ec = new Integer[m], count = new Integer[m];
        for (int k = 0; k < m; k++) {
            XidDetector.Event e = events.get(k);
            en[k] = e.node();
            eg[k] = e.gpu();
            et[k] = e.tsMs();
            ec[k] = e.code();
            count[k] = e.count();
            ep[k] = e.pod();
            ens[k] = e.namespace();
        }
        return saved.chain(() -> conn.preparedQuery(EVENTS).execute(Tuple.tuple().addArrayOfString(en)
                .addArrayOfString(eg).addArrayOfLong(et).addArrayOfInteger(ec).addArrayOfInteger(count)
                .addArrayOfString(ep).addArrayOfString(ens))).replaceWithVoid();
    }
}
