package io.jobmon.logs.query;

import io.jobmon.logs.chunk.ChunkRef;

/** An index row as queries read it (no filter, no body); {@code storedBytes} is the body's (compressed) size. */
public record ChunkMeta(ChunkRef ref, char kind, String node, String namespace, String pod, String container,
        int partition, long minOffset, long maxOffset, long minTime, long maxTime, int lines, long rawBytes,
        int storedBytes) {

    public boolean system() {
        return kind == 's';
    }
}
