package io.jobmon.metrics.ingest;

import io.jobmon.contracts.events.MetricSamples;
import io.jobmon.contracts.messaging.OffsetRepository;
import io.jobmon.metrics.config.MetricsConfig;
import io.jobmon.metrics.store.BlockReads;
import io.jobmon.metrics.store.ChangeNotices;
import io.jobmon.metrics.store.HeadRepository;
import io.jobmon.metrics.store.Resolution;
import io.jobmon.metrics.store.SeriesKey;
import io.jobmon.metrics.store.SeriesRepository;
import io.jobmon.metrics.store.SeriesStores;
import io.jobmon.metrics.store.codec.Points;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * Stores a batch of {@code jobmon.metrics.samples} records in one transaction: the partitions' applied offsets
 * (locked), one head block per node and window, the Xid events, the new offsets. Records at offsets already
 * applied are skipped, so a batch read again after a crash or a rebalance changes nothing twice.
 */
@ApplicationScoped
public class IngestService {

    /** What a batch did. */
    public record Result(int records, int replayed, long samples, long newestRecordMs) {
    }

    private final Pool pool;
    private final OffsetRepository offsets;
    private final SeriesRepository series;
    private final HeadRepository head;
    private final XidRepository xids;
    private final ChangeNotices notices;
    private final HoldingRepository holdings;
    private final long holdingGapMs;
    private final EngineForwarder engine;
    private final boolean external;

    public IngestService(Pool pool, OffsetRepository offsets, SeriesRepository series, HeadRepository head,
            XidRepository xids, ChangeNotices notices, HoldingRepository holdings, MetricsConfig config,
            EngineForwarder engine) {
        this.engine = engine;
        this.external = SeriesStores.external(config);
        this.notices = notices;
        this.holdings = holdings;
        this.holdingGapMs = config.holdings().gap().toMillis();
        this.pool = pool;
        this.offsets = offsets;
        this.series = series;
        this.head = head;
        this.xids = xids;
    }

    public Uni<Result> apply(String topic, List<SampleBatch> records, Map<Integer, Long> lastOffsets) {
        if (external) {
            return forward(topic, records, lastOffsets);
        }
        int total = 0;
        for (SampleBatch r : records) {
            total += r.series().size();
        }
        SeriesKey[] keys = new SeriesKey[total];
        String[] nodes = new String[total];
        MetricSamples.Series[] all = new MetricSamples.Series[total];
        int i = 0;
        for (SampleBatch r : records) {
            for (MetricSamples.Series s : r.series()) {
                keys[i] = SeriesKey.of(r.node(), s.name(), s.labels());
                nodes[i] = r.node();
                all[i++] = s;
            }
        }
        // Series ids first, outside the transaction: creating a series is idempotent and never undone. The blocks
        // are built and compressed on a worker thread, before the transaction, never on the event loop.
        return series.resolve(keys, nodes, all)
                .emitOn(Infrastructure.getDefaultWorkerPool())
                .map(ids -> new Object[] {ids, prepare(records, ids, r -> true)})
                .chain(x -> pool.withTransaction(conn -> applyIn(conn, topic, records, (long[]) x[0],
                        (Prepared) x[1], lastOffsets)))
                // this replica's charts see the new head blocks at once (other replicas by the commit's notices)
                .invoke(() -> records.forEach(r -> notices.wrote(BlockReads.headToken(r.node()))));
    }

    /**
     * {@code jobmon.metrics.storage=prometheus}: the batch's records not applied yet go to the engine by remote-write
     * inside the transaction that holds their partitions' offsets, then the Xid events, the GPU holdings and the new
     * offsets: the offsets are committed only after the engine's 2xx, and a record is sent once (ADR 0036).
     */
    private Uni<Result> forward(String topic, List<SampleBatch> records, Map<Integer, Long> lastOffsets) {
        return Uni.createFrom().item(() -> prepare(records, null, r -> true)).emitOn(Infrastructure.getDefaultWorkerPool())
                .chain(all -> pool.withTransaction(conn -> applyIn(conn, topic, records, null, all, lastOffsets)));
    }

    /** The head blocks, Xid samples and what each record says of its GPUs, of the records {@code take} keeps. */
    record Prepared(List<HeadRepository.Block> blocks, Map<String, List<MetricSamples.Sample>> xids,
            List<GpuHoldings.Seen> gpus, long samples, long newestRecordMs) {
    }

    /** @param ids the series id of every series of {@code records}, in order (null: no head blocks) */
    static Prepared prepare(List<SampleBatch> records, long[] ids, Predicate<SampleBatch> take) {
        Map<String, Map<Long, Points>> blocks = new LinkedHashMap<>();
        Map<String, List<MetricSamples.Sample>> xidSamples = new LinkedHashMap<>();
        List<GpuHoldings.Seen> gpus = new ArrayList<>();
        long samples = 0;
        long newest = 0;
        int k = 0;
        for (SampleBatch r : records) {
            if (!take.test(r)) {
                k += r.series().size();
                continue;
            }
            newest = Math.max(newest, r.kafkaTimeMs());
            Map<Long, Map<Long, Points>> byWindow = new HashMap<>();
            long oldestSample = Long.MAX_VALUE;
            for (MetricSamples.Series s : r.series()) {
                long id = ids == null ? 0 : ids[k++];
                long[] t = s.timestampsMs();
                double[] v = s.values();
                long window = Long.MIN_VALUE;
                Points p = null;
                for (int j = 0; j < t.length && ids == null; j++) {
                    oldestSample = Math.min(oldestSample, t[j]);
                }
                for (int j = 0; j < t.length && ids != null; j++) {
                    long w = Resolution.window(t[j]);
                    if (w != window || p == null) {
                        window = w;
                        p = byWindow.computeIfAbsent(w, x -> blocks.computeIfAbsent(r.node() + '\u0000' + x,
                                y -> new HashMap<>())).computeIfAbsent(id, x -> new Points(t.length));
                    }
                    p.add(t[j], v[j]);
                    oldestSample = Math.min(oldestSample, t[j]);
                }
                samples += t.length;
                if (XidDetector.isXid(s.name())) {
                    xidSamples.computeIfAbsent(r.node(), x -> new ArrayList<>()).addAll(SeriesBuilder.samples(s));
                }
            }
            GpuHoldings.Seen seen = GpuHoldings.seen(r, oldestSample);
            gpus.add(seen != null ? seen : new GpuHoldings.Seen(r.node(), oldestSample, Map.of(), List.of()));
        }
        List<HeadRepository.Block> list = new ArrayList<>(blocks.size());
        blocks.forEach((nodeWindow, series) -> {
            int sep = nodeWindow.indexOf('\u0000');
            series.replaceAll((id, p) -> p.normalize());
            list.add(HeadRepository.Block.of(nodeWindow.substring(0, sep), Long.parseLong(nodeWindow.substring(sep + 1)),
                    series));
        });
        return new Prepared(list, xidSamples, gpus, samples, newest);
    }

    private Uni<Result> applyIn(SqlConnection conn, String topic, List<SampleBatch> records, long[] ids,
            Prepared all, Map<Integer, Long> last) {
        return offsets.lock(conn, topic, last.keySet()).chain(next -> {
            Predicate<SampleBatch> fresh = r -> r.offset() >= next.getOrDefault(r.partition(), 0L);
            int replayed = (int) records.stream().filter(fresh.negate()).count();
            // records already stored (a redelivery after a crash or rebalance) are left out: rare, rebuilt here
            Prepared p = replayed == 0 ? all : prepare(records, ids, fresh);
            Map<Integer, Long> newNext = new HashMap<>();
            last.forEach((part, o) -> newNext.put(part, o + 1));
            Result result = new Result(records.size(), replayed, p.samples(), p.newestRecordMs());
            List<SampleBatch> sent = replayed == 0 ? records : records.stream().filter(fresh).toList();
            Uni<Void> samples = ids == null ? engine.forward(sent).chain(() -> engine.noticeLate(conn, sent))
                    : head.insert(conn, p.blocks());
            return samples
                    .chain(() -> xids(conn, p.xids()))
                    .chain(() -> holdings(conn, p.gpus()))
                    .chain(() -> offsets.save(conn, topic, newNext))
                    .replaceWith(result);
        });
    }

    /** The batch's nodes' open holdings carried over its records (the table's, so a rebalance loses nothing). */
    private Uni<Void> holdings(SqlConnection conn, List<GpuHoldings.Seen> seen) {
        if (seen.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        String[] nodes = seen.stream().map(GpuHoldings.Seen::node).distinct().toArray(String[]::new);
        return holdings.open(conn, nodes)
                .chain(open -> holdings.save(conn, GpuHoldings.apply(open, seen, holdingGapMs)));
    }

    private Uni<Void> xids(SqlConnection conn, Map<String, List<MetricSamples.Sample>> byNode) {
        if (byNode.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        Map<String, String[]> gpus = new LinkedHashMap<>();
        byNode.forEach((node, samples) -> samples.forEach(s -> {
            String gpu = XidDetector.gpu(s.labels());
            if (gpu != null) {
                gpus.putIfAbsent(node + '\u0000' + gpu, new String[] {node, gpu});
            }
        }));
        return xids.load(conn, gpus.values()).chain(stored -> {
            Map<XidDetector.StateKey, Double> state = new HashMap<>(stored);
            List<XidDetector.Event> events = new ArrayList<>();
            long newest = 0;
            for (Map.Entry<String, List<MetricSamples.Sample>> e : byNode.entrySet()) {
                events.addAll(XidDetector.detect(e.getKey(), e.getValue(), state));
                for (MetricSamples.Sample s : e.getValue()) {
                    newest = Math.max(newest, s.timestampMs());
                }
            }
            Map<XidDetector.StateKey, Double> changed = new HashMap<>();
            state.forEach((key, v) -> {
                if (!Objects.equals(stored.get(key), v)) {
                    changed.put(key, v);
                }
            });
            return xids.save(conn, changed, newest, events);
        });
    }
}
