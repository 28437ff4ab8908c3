package io.jobmon.metrics.query;

import io.jobmon.metrics.store.SeriesLabels;
import io.jobmon.metrics.store.SeriesRef;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;

/**
 * The GPUs a job's pods held and when ({@code gpu_holding}, written by ingest from dcgm-exporter's pod labels, ADR
 * 0009), and whether a series or an Xid event is of one of them: by UUID, else PCI bus id, else node and GPU index.
 */
@ApplicationScoped
public class Holdings {

    /** A holding of one of the job's pods; {@code toMs} null while it lasts (the last labelled sample once ended). */
    public record Held(String node, String gpu, String index, String uuid, String pciBusId, String device,
            String model, String namespace, String pod, long fromMs, Long toMs) {

        /**
         * The holding as a half-open range [from, to + {@link #AFTER_LAST}] (its last labelled sample included, and
         * what the GPU reported right after it), cut to [fromMs, toMs).
         */
        long[] range(long fromMs, long toMs) {
            long f = Math.max(fromMs, this.fromMs);
            long t = this.toMs == null ? toMs : Math.min(toMs, this.toMs + 1 + AFTER_LAST);
            return t > f ? new long[] {f, t} : null;
        }

        boolean covers(long ms) {
            return ms >= fromMs && (toMs == null || ms <= toMs + AFTER_LAST);
        }
    }

    /**
     * A GPU that fails stops reporting for its pod at once (fallen off the bus: dcgm-exporter's pod mapping loses it),
     * and its Xid and ECC samples come a scrape or two after the holder's last labelled one: they are still the
     * holder's. The device plugin marks such a GPU unhealthy, so no other pod gets it that soon.
     */
    static final long AFTER_LAST = 60_000;

    private static final String OF_JOB = "SELECT h.node, h.gpu, h.uuid, h.pci_bus_id, h.device, h.model, h.namespace,"
            + " h.pod, h.from_ms, h.to_ms FROM job_info j JOIN gpu_holding h ON h.pod = ANY(j.pods)"
            + " AND (j.namespace IS NULL OR h.namespace IS NULL OR h.namespace = j.namespace)"
            + " WHERE j.job_id = $1 ORDER BY h.node, h.gpu, h.from_ms";

    private final Pool pool;

    public Holdings(Pool pool) {
        this.pool = pool;
    }

    public Uni<List<Held>> ofJob(String jobId) {
        return pool.preparedQuery(OF_JOB).execute(Tuple.of(jobId)).map(rows -> {
            List<Held> out = new ArrayList<>();
            for (Row r : rows) {
                String gpu = r.getString("gpu");
                String uuid = r.getString("uuid");
                int slash = gpu.indexOf('/');
                String index = slash < 0 ? gpu : gpu.substring(0, slash);
                out.add(new Held(r.getString("node"), gpu, index.equals(uuid) ? null : index, uuid,
                        r.getString("pci_bus_id"), r.getString("device"), r.getString("model"),
                        r.getString("namespace"), r.getString("pod"), r.getLong("from_ms"), r.getLong("to_ms")));
            }
            return out;
        });
    }

    /** Whether the series is of the held GPU: same node, and same UUID, else PCI bus id, else GPU index. */
    static boolean sameGpu(Held h, SeriesRef s) {
        if (!h.node().equals(s.node())) {
            return false;
        }
        return sameGpu(h, SeriesLabels.get(s.labels(), "UUID") != null ? SeriesLabels.get(s.labels(), "UUID")
                : SeriesLabels.get(s.labels(), "uuid"), SeriesLabels.get(s.labels(), "pci_bus_id"), s.gpu());
    }

    static boolean sameGpu(Held h, String uuid, String pciBusId, String index) {
        if (uuid != null && h.uuid() != null) {
            return uuid.equalsIgnoreCase(h.uuid());
        }
        if (pciBusId != null && h.pciBusId() != null) {
            return pciBusId.equalsIgnoreCase(h.pciBusId());
        }
        return index != null && index.equals(h.index());
    }

    /** Whether an Xid event ({@code gpu}: dcgm-exporter's index, else the UUID) is of the held GPU at its time. */
    static boolean heldAt(Held h, String node, String gpu, long ms) {
        return h.node().equals(node) && gpu != null && (gpu.equals(h.index()) || gpu.equalsIgnoreCase(h.uuid()))
                && h.covers(ms);
    }
}
