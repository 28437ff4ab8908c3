package io.jobmon.logs.query;

import io.jobmon.logs.chunk.ChunkCodec;
import io.jobmon.logs.chunk.ChunkData;
import io.jobmon.logs.chunk.ChunkRef;
import java.util.List;

/**
 * A chunk's body as {@link LogReader} fetched it: whole, or its front, the rest fetched when a read goes past the front's
 * lines; or the newest segments its index row keeps (ADRs 0047, 0052), then the front of {@code frontBytes} (0: the
 * whole body) fetched first.
 */
final class ChunkBody {
    private final ChunkRef ref;
    private final ChunkQueries queries;
    private byte[] bytes;
    private boolean whole;
    /** Of a kept segment: the front to fetch when the read goes past it; -1 otherwise (or once fetched). */
    private int frontBytes;

    ChunkBody(ChunkRef ref, byte[] bytes, boolean whole, ChunkQueries queries, int frontBytes) {
        this.ref = ref;
        this.bytes = bytes;
        this.whole = whole;
        this.queries = queries;
        this.frontBytes = frontBytes;
    }

    /**
     * More of the chunk than {@code d} (its newest lines from line {@code d.first} on): of a kept segment the
     * newest {@code lines} from the body's front, when that front reaches further; else the whole chunk.
     */
    ChunkData older(ChunkData d, int lines) {
        if (frontBytes > 0) {
            byte[] front = queries.bodies(List.of(ref), new int[] {frontBytes}).get(ref);
            frontBytes = -1;
            if (front == null) {
                throw new LogReader.Moved();
            }
            bytes = front;
            ChunkData more = ChunkCodec.decodeNewestOfFront(front, lines);
            if (more != null && more.first < d.first) {
                return more;
            }
        }
        frontBytes = -1;
        return ChunkCodec.decode(whole());
    }

    byte[] whole() {
        if (!whole) {
            bytes = queries.bodies(List.of(ref)).get(ref);
            if (bytes == null) {
                throw new LogReader.Moved();
            }
            whole = true;
        }
        return bytes;
    }

    ChunkData newest(int lines) {
        ChunkData d = whole ? null : ChunkCodec.decodeNewestOfFront(bytes, lines);
        return d != null ? d : ChunkCodec.decodeNewest(whole(), lines);
    }
}
