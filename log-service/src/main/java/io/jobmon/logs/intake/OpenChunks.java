package io.jobmon.logs.intake;

import io.jobmon.logs.chunk.ChunkLines;
import io.jobmon.logs.chunk.StreamKey;
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

    /** A line as stored, its UTF-8 text {@code text[from, to)}. */
    void add(StreamKey stream, int partition, long time, long offset, int sub, int flags, byte[] text, int from, int to) {
        ChunkLines into;
        if (lastKey != null && lastKey.partition() == partition && lastKey.stream().equals(stream)) {
            into = lastLines;
        } else {
            lastKey = new Key(stream, partition);
            into = lastLines = lines.computeIfAbsent(lastKey, k -> new ChunkLines());
        }
        into.add(time, offset, sub, flags, text, from, to - from);
        rawBytes += to - from;
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
