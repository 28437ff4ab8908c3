package io.jobmon.logs.intake;

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

    final Map<Key, List<StoredLine>> lines = new HashMap<>();
    final Map<Integer, Long> next = new HashMap<>();
    final List<Supplier<CompletionStage<Void>>> acks = new ArrayList<>();
    long rawBytes;
    int count;
    int records;
    int masked;
    int cut;
    long openedAt = -1;

    void add(StreamKey stream, int partition, StoredLine line, int utf8Bytes) {
        lines.computeIfAbsent(new Key(stream, partition), k -> new ArrayList<>()).add(line);
        rawBytes += utf8Bytes;
        count++;
        if ((line.flags() & StoredLine.MASKED) != 0) {
            masked++;
        }
        if ((line.flags() & StoredLine.CUT) != 0) {
            cut++;
        }
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
