package io.jobmon.metrics.store;

import io.jobmon.metrics.store.codec.ChunkCodec;
import io.jobmon.metrics.store.codec.HeadCodec;
import io.jobmon.metrics.store.codec.Points;
import io.jobmon.metrics.store.codec.Rollups;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads what a chart needs in one statement (one snapshot, so a window compacted meanwhile is seen either in the head
 * or in the chunks, never in neither): the head blocks of the series' nodes and the series' stored blocks of one
 * table (raw chunks or rollups). Blocks this replica decoded before ({@link DecodedCache}) are named in the query and
 * come back without their bodies; the rest are decoded on a worker thread and kept. When this replica holds every
 * block of the read as stored (it read the same ranges before, and has heard no notice of the nodes since:
 * {@link ChangeNotices}), the read needs no statement at all, as a chart refreshed while its job's nodes are quiet.
 */
@ApplicationScoped
public class BlockReads {

    /**
     * The stored tables of blocks; {@code ROLLUP_1M_HOURS} is {@code rollup_1m} read as 1-hour rollups (each block
     * coarsened when decoded, and kept so: ADR 0050).
     */
    public enum Table {
        CHUNK("chunk", "chunk"), ROLLUP_1M("rollup_1m", "rollup_1m"), ROLLUP_1H("rollup_1h", "rollup_1h"),
        ROLLUP_1M_HOURS("rollup_1m", "rollup_1m_hours");

        final String name;
        final String group;

        Table(String name, String group) {
            this.name = name;
            this.group = group;
        }
    }

    /**
     * What a read found: the head's samples of the wanted series (in no particular order, possibly repeated; never
     * to be changed: they may be cached), and per series its stored blocks in start order ({@link Points} of raw
     * chunks, {@link Rollups} of rollup chunks; the same: read-only).
     */
    public record Found(Map<Long, List<Points>> head, Map<Long, List<Object>> stored) {
    }

    /** A head block's samples of the series a reader looked for ({@code looked}), found or not. */
    record HeadPart(Set<Long> looked, Map<Long, Points> found) {
        long bytes() {
            long b = 64L + looked.size() * 16L;
            for (Points p : found.values()) {
                b += p.bytes();
            }
            return b;
        }
    }

    private static final String SQL = "SELECT 0 AS kind, h.id AS key, h.window_ms AS at, 0::bigint AS version,"
            + " h.node AS node, CASE WHEN h.id = ANY($5::bigint[]) THEN NULL ELSE h.body END AS body"
            + " FROM head_block h WHERE h.node = ANY($1::text[]) AND h.window_ms >= $2 AND h.window_ms < $3"
            + " UNION ALL SELECT 1, c.series_id, c.start_ms, c.xmin::text::bigint, NULL, CASE WHEN (c.series_id,"
            + " c.start_ms, c.xmin::text::bigint) IN (SELECT * FROM unnest($6::bigint[], $7::bigint[], $8::bigint[]))"
            + " THEN NULL ELSE c.body END FROM %s c WHERE c.series_id = ANY($4::bigint[]) AND c.start_ms >= $9"
            + " AND c.start_ms < $3";

    private final Pool pool;
    private final DecodedCache cache;
    private final ChangeNotices notices;
    private final Counter fromMemory;
    private final Counter fromDatabase;

    public BlockReads(Pool pool, DecodedCache cache, ChangeNotices notices, MeterRegistry registry) {
        this.pool = pool;
        this.cache = cache;
        this.notices = notices;
        String name = "jobmon.metrics.block.reads";
        String description = "chart reads of stored blocks, by where they were answered";
        fromMemory = Counter.builder(name).description(description).tag("from", "memory").register(registry);
        fromDatabase = Counter.builder(name).description(description).tag("from", "database").register(registry);
    }

    /**
     * @param headFrom the first head window read; {@code storedFrom} the first stored block start read; both up to
     *        {@code to} (no head read when {@code headFrom >= to})
     */
    public Uni<Found> read(List<SeriesRef> series, Table table, long headFrom, long storedFrom, long to) {
        long seq = notices.seq(); // before the statement is sent: a change it misses is heard after it
        Map<String, Set<Long>> wanted = new HashMap<>();
        series.forEach(s -> wanted.computeIfAbsent(s.node(), k -> new HashSet<>()).add(s.id()));
        Map<String, DecodedCache.Group> heads = new HashMap<>();
        if (headFrom < to) {
            wanted.keySet().forEach(node -> heads.put(node, cache.snapshot(headGroup(node))));
        }
        Map<Long, DecodedCache.Group> stored = new HashMap<>();
        series.forEach(s -> stored.put(s.id(), cache.snapshot(storedGroup(table, s.id()))));
        Found kept = fromMemory(series, wanted, heads, stored, headFrom, storedFrom, to);
        if (kept != null) {
            fromMemory.increment();
            return Uni.createFrom().item(kept);
        }
        fromDatabase.increment();
        // what this replica holds: head blocks that have every wanted series of their node, stored blocks by version
        List<Long> knownBlocks = new ArrayList<>();
        heads.forEach((node, group) -> group.items().forEach((id, item) -> {
            if (item.at() >= headFrom && item.at() < to && ((HeadPart) item.value()).looked().containsAll(wanted.get(node))) {
                knownBlocks.add(id);
            }
        }));
        List<Long> knownSeries = new ArrayList<>();
        List<Long> knownStarts = new ArrayList<>();
        List<Long> knownVersions = new ArrayList<>();
        stored.forEach((id, group) -> group.items().forEach((start, item) -> {
            if (start >= storedFrom && start < to) {
                knownSeries.add(id);
                knownStarts.add(start);
                knownVersions.add(item.version());
            }
        }));
        Tuple args = Tuple.tuple().addArrayOfString(heads.keySet().toArray(String[]::new)).addValue(headFrom)
                .addValue(to).addArrayOfLong(stored.keySet().toArray(Long[]::new))
                .addArrayOfLong(knownBlocks.toArray(Long[]::new)).addArrayOfLong(knownSeries.toArray(Long[]::new))
                .addArrayOfLong(knownStarts.toArray(Long[]::new)).addArrayOfLong(knownVersions.toArray(Long[]::new))
                .addValue(storedFrom);
        return pool.preparedQuery(String.format(SQL, table.name)).execute(args).chain(rows -> {
            List<Row> list = new ArrayList<>(rows.size());
            long bodyBytes = 0;
            for (Row r : rows) {
                list.add(r);
                io.vertx.mutiny.core.buffer.Buffer body = r.getBuffer("body");
                bodyBytes += body == null ? 0 : body.length();
            }
            // by window or chunk start, then (head blocks) in the order they were written
            list.sort(Comparator.comparingLong((Row r) -> r.getLong("at")).thenComparingLong(r -> r.getLong("key")));
            Uni<List<Row>> found = Uni.createFrom().item(list);
            // blocks to decode go to a worker thread; what this replica had decoded is put together where it is
            if (bodyBytes > INLINE_DECODE_BYTES) {
                found = found.emitOn(Infrastructure.getDefaultWorkerPool());
            }
            return found.map(l -> resolve(l, table, wanted, heads, stored, headFrom, storedFrom, to, seq));
        });
    }

    /**
     * The read from this replica's memory, when every group holds its whole range as stored (read before, and no notice
     * of its node heard since) and the head blocks were decoded for every wanted series; else null.
     */
    private Found fromMemory(List<SeriesRef> series, Map<String, Set<Long>> wanted, Map<String, DecodedCache.Group> heads,
            Map<Long, DecodedCache.Group> stored, long headFrom, long storedFrom, long to) {
        for (SeriesRef s : series) {
            DecodedCache.Group g = stored.get(s.id());
            if (!g.covers(storedFrom, to) || notices.changedSince(g.seq(), headToken(s.node()))) {
                return null;
            }
        }
        Map<Long, List<Points>> head = new HashMap<>();
        for (Map.Entry<String, DecodedCache.Group> e : heads.entrySet()) {
            DecodedCache.Group g = e.getValue();
            Set<Long> ids = wanted.get(e.getKey());
            if (!g.covers(headFrom, to) || notices.changedSince(g.seq(), headToken(e.getKey()))) {
                return null;
            }
            List<Map.Entry<Long, DecodedCache.Item>> items = new ArrayList<>();
            for (Map.Entry<Long, DecodedCache.Item> item : g.items().entrySet()) {
                if (item.getValue().at() >= headFrom && item.getValue().at() < to) {
                    if (!((HeadPart) item.getValue().value()).looked().containsAll(ids)) {
                        return null;
                    }
                    items.add(item);
                }
            }
            // as the database sends them: by window, then in the order they were written
            items.sort(Comparator.comparingLong((Map.Entry<Long, DecodedCache.Item> i) -> i.getValue().at())
                    .thenComparingLong(Map.Entry::getKey));
            for (Map.Entry<Long, DecodedCache.Item> item : items) {
                Map<Long, Points> found = ((HeadPart) item.getValue().value()).found();
                for (long id : ids) {
                    Points p = found.get(id);
                    if (p != null) {
                        head.computeIfAbsent(id, k -> new ArrayList<>()).add(p);
                    }
                }
            }
        }
        Map<Long, List<Object>> blocks = new HashMap<>();
        stored.forEach((id, g) -> g.items().values().stream().filter(i -> i.at() >= storedFrom && i.at() < to)
                .sorted(Comparator.comparingLong(DecodedCache.Item::at))
                .forEach(i -> blocks.computeIfAbsent(id, k -> new ArrayList<>()).add(i.value())));
        return new Found(head, blocks);
    }

    /** The notice of a node's head blocks, sent too when compaction turns them into chunks and rollups. */
    public static String headToken(String node) {
        return "head:" + node;
    }

    /** Compressed bytes decoded on the thread the rows arrived on (a few small blocks); more go to a worker. */
    static final long INLINE_DECODE_BYTES = 16 * 1024;

    private Found resolve(List<Row> rows, Table table, Map<String, Set<Long>> wanted,
            Map<String, DecodedCache.Group> heads, Map<Long, DecodedCache.Group> stored, long headFrom, long storedFrom,
            long to, long seq) {
        Map<Long, List<Points>> head = new HashMap<>();
        Map<Long, List<Object>> blocks = new HashMap<>();
        Map<String, Map<Long, DecodedCache.Item>> newHead = new HashMap<>();
        Map<String, Set<Long>> seenHead = new HashMap<>();
        Map<Long, Map<Long, DecodedCache.Item>> newStored = new HashMap<>();
        Map<Long, Set<Long>> seenStored = new HashMap<>();
        for (Row r : rows) {
            long key = r.getLong("key");
            long at = r.getLong("at");
            io.vertx.mutiny.core.buffer.Buffer body = r.getBuffer("body");
            if (r.getInteger("kind") == 0) {
                String node = r.getString("node");
                Set<Long> ids = wanted.get(node);
                DecodedCache.Item old = heads.get(node).items().get(key);
                HeadPart part;
                if (body == null) {
                    part = (HeadPart) old.value();
                } else {
                    Map<Long, Points> found = new HashMap<>();
                    HeadCodec.decode(body.getBytes(), ids::contains, found);
                    Set<Long> looked = new HashSet<>(ids);
                    if (old != null) { // keep what an earlier reader looked for in the same block
                        HeadPart before = (HeadPart) old.value();
                        looked.addAll(before.looked());
                        before.found().forEach(found::putIfAbsent);
                    }
                    part = new HeadPart(Set.copyOf(looked), Map.copyOf(found));
                    newHead.computeIfAbsent(node, k -> new HashMap<>()).put(key,
                            new DecodedCache.Item(0, at, part, part.bytes()));
                }
                seenHead.computeIfAbsent(node, k -> new HashSet<>()).add(key);
                for (long id : ids) {
                    Points p = part.found().get(id);
                    if (p != null) {
                        head.computeIfAbsent(id, k -> new ArrayList<>()).add(p);
                    }
                }
            } else {
                Object value;
                if (body == null) {
                    value = stored.get(key).items().get(at).value();
                } else {
                    byte[] bytes = body.getBytes();
                    if (table == Table.CHUNK) {
                        Points p = ChunkCodec.decode(bytes);
                        value = p;
                        newStored.computeIfAbsent(key, k -> new HashMap<>()).put(at,
                                new DecodedCache.Item(r.getLong("version"), at, p, p.bytes()));
                    } else {
                        Rollups ro = Rollups.decode(bytes);
                        if (table == Table.ROLLUP_1M_HOURS) {
                            ro = Rollups.coarsen(ro, Resolution.HOUR.bucketMs);
                        }
                        value = ro;
                        newStored.computeIfAbsent(key, k -> new HashMap<>()).put(at,
                                new DecodedCache.Item(r.getLong("version"), at, ro, ro.bytes()));
                    }
                }
                seenStored.computeIfAbsent(key, k -> new HashSet<>()).add(at);
                blocks.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
            }
        }
        heads.keySet().forEach(node -> cache.update(headGroup(node), headFrom, to,
                newHead.getOrDefault(node, Map.of()), seenHead.getOrDefault(node, Set.of()), seq));
        stored.keySet().forEach(id -> cache.update(storedGroup(table, id), storedFrom, to,
                newStored.getOrDefault(id, Map.of()), seenStored.getOrDefault(id, Set.of()), seq));
        return new Found(head, blocks);
    }

    static String headGroup(String node) {
        return "head:" + node;
    }

    static String storedGroup(Table table, long seriesId) {
        return table.group + ":" + seriesId;
    }
}
