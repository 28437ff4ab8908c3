package io.jobmon.logs.intake;

import io.jobmon.logs.chunk.ChunkLines;
import io.jobmon.logs.chunk.StoredLine;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * One generation of lines read but not yet stored: per stream and Kafka partition, with the next offset of every
 * partition read and the acknowledgements of the batches they came from (given once the generation is stored).
 */
final class OpenChunks {

    /** A stream's lines from one partition: one chunk. */
    record Key(StreamKey stream, int partition) {
    }

    final Map<Key, ChunkLines> lines = new HashMap<>();
    final Map<Integer, Long> next = new HashMap<>();
    final List<Supplier<CompletionStage<Void>>> acks = new ArrayList<>();
    long rawBytes;
    int records;
    long openedAt = -1;

    /** The stream and lines of the last {@link #add}: consecutive lines are mostly of one stream. */
    private Key lastKey;
    private ChunkLines lastLines;

    /** @param text the line's text in UTF-8 */
    void add(StreamKey stream, int partition, StoredLine line, byte[] text) {
        ChunkLines to;
        if (lastKey != null && lastKey.partition() == partition && lastKey.stream().equals(stream)) {
            to = lastLines;
        } else {
            lastKey = new Key(stream, partition);
            to = lastLines = lines.computeIfAbsent(lastKey, k -> new ChunkLines());
        }
        to.add(line.time(), line.offset(), line.sub(), line.flags(), text);
        rawBytes += text.length;
    }

    void read(int partition, long offset, Supplier<CompletionStage<Void>> ack) {
        next.merge(partition, offset + 1, Math::max);
        if (ack != null) {
            acks.add(ack);
        }
        if (openedAt < 0) {
            openedAt = System.nanoTime();
        }
    }

    boolean isEmpty() {
        return next.isEmpty() && acks.isEmpty();
    }
}
