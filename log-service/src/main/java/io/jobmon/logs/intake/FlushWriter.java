package io.jobmon.logs.intake;

import io.jobmon.contracts.messaging.OffsetRepository;
import io.jobmon.logs.chunk.ChunkCodec;
import io.jobmon.logs.chunk.ChunkIndex;
import io.jobmon.logs.chunk.ChunkLines;
import io.jobmon.logs.chunk.ChunkPartitions;
import io.jobmon.logs.chunk.NewChunk;
import io.jobmon.logs.chunk.StoredLine;
import io.jobmon.logs.chunk.StreamKey;
import io.jobmon.logs.config.LogsConfig;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Stores a generation of open chunks in one transaction with the Kafka positions they hold: the partitions' stored
 * offsets are locked, lines at offsets already stored (re-read after a crash or rebalance) are left out, the chunks
 * and their bodies written, the new offsets saved. A crash loses nothing (the positions were not saved) and a
 * replay duplicates nothing (they were).
 */
@ApplicationScoped
public class FlushWriter {

    /** What a stored flush held: the lines, bytes and flags actually written. */
    public record Stored(int lines, long rawBytes, int masked, int cut, int chunks) {
    }

    private final Pool pool;
    private final OffsetRepository offsets;
    private final ChunkIndex index;
    private final ChunkPartitions partitions;
    private final LogsConfig config;

    public FlushWriter(Pool pool, OffsetRepository offsets, ChunkIndex index, ChunkPartitions partitions, LogsConfig config) {
        this.pool = pool;
        this.offsets = offsets;
        this.index = index;
        this.partitions = partitions;
        this.config = config;
    }

    /** Encodes the generation's chunks (CPU: call it off the event loop). */
    List<NewChunk> encode(OpenChunks g) {
        List<NewChunk> out = new ArrayList<>(g.lines.size());
        g.lines.forEach((key, lines) -> out.add(encode(key.stream(), key.partition(), lines.sorted())));
        return out;
    }

    private NewChunk encode(StreamKey stream, int partition, ChunkLines lines) {
        long raw = lines.textBytes();
        // A flush that fills a chunk writes it final; smaller ones are compacted within chunks.max-age.
        boolean full = raw >= config.chunks().targetRawBytes() / 2;
        int level = full ? 1 : 0;
        ChunkCodec.Encoded e = ChunkCodec.encode(lines, full ? config.chunks().zstdLevel() : 1, config.chunks().filterBits());
        return new NewChunk(stream, partition, level, e, lines);
    }

    /** Stores the chunks and the offsets in one transaction. */
    Uni<Stored> store(String topic, List<NewChunk> chunks, Map<Integer, Long> next) {
        LocalDate day = ChunkPartitions.day(Instant.now());
        return partitions.ensure(day).chain(() -> pool.withTransaction(conn -> store(conn, topic, day, chunks, next)));
    }

    private Uni<Stored> store(SqlConnection conn, String topic, LocalDate day, List<NewChunk> chunks, Map<Integer, Long> next) {
        return offsets.lock(conn, topic, next.keySet()).chain(stored -> {
            List<NewChunk> fresh = new ArrayList<>(chunks.size());
            for (NewChunk c : chunks) {
                long from = stored.getOrDefault(c.partition(), 0L);
                if (c.encoded().minOffset() >= from) {
                    fresh.add(c);
                } else if (c.encoded().maxOffset() >= from) {
                    fresh.add(encode(c.stream(), c.partition(), c.lines().from(from)));
                }
            }
            Map<Integer, Long> save = new HashMap<>(next);
            return index.insert(conn, day, fresh)
                    .chain(() -> offsets.save(conn, topic, save))
                    .map(v -> summary(fresh));
        });
    }

    private static Stored summary(List<NewChunk> chunks) {
        int lines = 0;
        long raw = 0;
        int masked = 0;
        int cut = 0;
        for (NewChunk c : chunks) {
            lines += c.encoded().lines();
            raw += c.encoded().rawBytes();
            masked += c.lines().count(StoredLine.MASKED);
            cut += c.lines().count(StoredLine.CUT);
        }
        return new Stored(lines, raw, masked, cut, chunks.size());
    }
}
