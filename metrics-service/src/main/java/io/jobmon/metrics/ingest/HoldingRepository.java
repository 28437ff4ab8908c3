package io.jobmon.metrics.ingest;

import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.GpuHolding;
import io.jobmon.contracts.events.Topics;
import io.jobmon.contracts.outbox.Outbox;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * GPU holdings in the batch's transaction: the open ones of the batch's nodes, and what the batch changed, with a
 * {@link GpuHolding} record on {@code jobmon.gpu.holdings} (through the outbox) for each holding that started or ended.
 */
@ApplicationScoped
public class HoldingRepository {

    static final String SOURCE = "/jobmon/metrics-service";

    private static final String OPEN = "SELECT node, gpu, from_ms, last_ms, uuid, pci_bus_id, device, model, cluster,"
            + " namespace, pod, ref_metric, ref_labels FROM gpu_holding WHERE to_ms IS NULL AND node = ANY($1::text[])";
    private static final String UPSERT = "INSERT INTO gpu_holding AS h (node, gpu, from_ms, to_ms, last_ms, uuid,"
            + " pci_bus_id, device, model, cluster, namespace, pod, ref_metric, ref_labels)"
            + " SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[], $6::text[],"
            + " $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[])"
            + " ON CONFLICT (node, gpu, from_ms) DO UPDATE SET to_ms = EXCLUDED.to_ms,"
            + " last_ms = GREATEST(h.last_ms, EXCLUDED.last_ms)";

    private final Outbox outbox;

    public HoldingRepository(Outbox outbox) {
        this.outbox = outbox;
    }

    /** The open holdings on these nodes. */
    public Uni<List<GpuHoldings.Holding>> open(SqlConnection conn, String[] nodes) {
        return conn.preparedQuery(OPEN).execute(Tuple.of(nodes)).map(rows -> {
            List<GpuHoldings.Holding> out = new ArrayList<>();
            for (Row r : rows) {
                String gpu = r.getString("gpu");
                String index = index(gpu, r.getString("uuid"));
                out.add(new GpuHoldings.Holding(r.getString("node"), gpu, r.getLong("from_ms"), null,
                        r.getLong("last_ms"), r.getLong("last_ms"), index, r.getString("uuid"),
                        r.getString("pci_bus_id"), r.getString("device"), r.getString("model"), r.getString("cluster"),
                        r.getString("namespace"), r.getString("pod"), r.getString("ref_metric"),
                        r.getString("ref_labels")));
            }
            return out;
        });
    }

    /** Writes what changed and appends the records of the holdings that started or ended. */
    public Uni<Void> save(SqlConnection conn, GpuHoldings.Changes changes) {
        if (changes.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        List<GpuHoldings.Holding> w = changes.write();
        int n = w.size();
        String[] node = new String[n], gpu = new String[n], uuid = new String[n], bus = new String[n],
                device = new String[n], model = new String[n], cluster = new String[n], ns = new String[n],
                pod = new String[n], refMetric = new String[n], refLabels = new String[n];
        Long[] from = new Long[n], to = new Long[n], last = new Long[n];
        for (int i = 0; i < n; i++) {
            GpuHoldings.Holding h = w.get(i);
            node[i] = h.node;
            gpu[i] = h.gpu;
            from[i] = h.fromMs;
            to[i] = h.toMs;
            last[i] = h.lastMs;
            uuid[i] = h.uuid;
            bus[i] = h.pciBusId;
            device[i] = h.device;
            model[i] = h.model;
            cluster[i] = h.cluster;
            ns[i] = h.namespace;
            pod[i] = h.pod;
            refMetric[i] = h.refMetric;
            refLabels[i] = h.refLabels;
        }
        Tuple args = Tuple.tuple().addArrayOfString(node).addArrayOfString(gpu).addArrayOfLong(from)
                .addArrayOfLong(to).addArrayOfLong(last).addArrayOfString(uuid).addArrayOfString(bus)
                .addArrayOfString(device).addArrayOfString(model).addArrayOfString(cluster).addArrayOfString(ns)
                .addArrayOfString(pod).addArrayOfString(refMetric).addArrayOfString(refLabels);
        List<String> keys = new ArrayList<>();
        List<String> payloads = new ArrayList<>();
        for (GpuHoldings.Holding h : changes.publish()) {
            GpuHolding record = record(h);
            keys.add(record.key());
            payloads.add(CloudEvents.encode(SOURCE, GpuHolding.TYPE, record.key(), record));
        }
        return conn.preparedQuery(UPSERT).execute(args)
                .chain(() -> outbox.append(conn, Topics.GPU_HOLDINGS, keys, payloads));
    }

    /** The GPU's index from its key (index, or UUID when the exporter gave none; MIG instances after a '/'). */
    static String index(String key, String uuid) {
        int slash = key.indexOf('/');
        String g = slash < 0 ? key : key.substring(0, slash);
        return g.equals(uuid) ? null : g;
    }

    static GpuHolding record(GpuHoldings.Holding h) {
        return new GpuHolding(h.cluster, h.node, h.index, h.uuid, h.pciBusId, h.device, h.model, h.namespace, h.pod,
                Instant.ofEpochMilli(h.fromMs), h.toMs == null ? null : Instant.ofEpochMilli(h.toMs));
    }
}
