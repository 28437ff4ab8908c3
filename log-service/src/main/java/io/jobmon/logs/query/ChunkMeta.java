package io.jobmon.logs.query;

import io.jobmon.logs.chunk.ChunkRef;

/**
 * An index row as queries read it (no filter, no body); {@code storedBytes} is the body's (compressed) size;
 * {@code newest} the newest segment the row keeps (ADR 0047), null when it keeps none or the query did not read it.
 */
public record ChunkMeta(ChunkRef ref, char kind, String node, String namespace, String pod, String container,
        int partition, long minOffset, long maxOffset, long minTime, long maxTime, int lines, long rawBytes,
        int storedBytes, byte[] newest) {

    public ChunkMeta(ChunkRef ref, char kind, String node, String namespace, String pod, String container,
            int partition, long minOffset, long maxOffset, long minTime, long maxTime, int lines, long rawBytes,
            int storedBytes) {
        this(ref, kind, node, namespace, pod, container, partition, minOffset, maxOffset, minTime, maxTime, lines,
                rawBytes, storedBytes, null);
    }

    public boolean system() {
        return kind == 's';
    }
}
