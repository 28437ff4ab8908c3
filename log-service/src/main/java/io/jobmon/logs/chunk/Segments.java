package io.jobmon.logs.chunk;

import com.github.luben.zstd.RecyclingBufferPool;
import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import io.jobmon.contracts.bytes.ByteReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Reading the segments of a version 2 chunk body ({@link ChunkCodec}): all of them from a decompressed body, or the
 * newest ones from the compressed frame, decompressed as a stream only as far as they reach.
 */
final class Segments {

    /** A segment: its bytes are {@code [from, end)} of {@code b} (past its size). */
    record At(byte[] b, int from, int end) {
    }

    private Segments() {
    }

    /**
     * The newest segments holding at least {@code wanted} lines, or every line. {@code body} may be only the front of a
     * body ({@code whole} false): then null when it ends before those segments do, or is of version 1.
     */
    static ChunkData newest(byte[] body, int wanted, boolean whole) {
        try (InputStream in = new ZstdInputStreamNoFinalizer(new ByteArrayInputStream(body), RecyclingBufferPool.INSTANCE)) {
            int version = (int) ByteReader.varint(in);
            if (version != ChunkCodec.VERSION) {
                // version 1: the columns of all lines come first
                return whole ? ChunkCodec.decode(body) : null;
            }
            int n = (int) ByteReader.varint(in);
            int count = (int) ByteReader.varint(in);
            List<At> segments = new ArrayList<>();
            int have = 0;
            for (int s = 0; s < count && have < wanted; s++) {
                int length = (int) ByteReader.varint(in);
                byte[] segment = in.readNBytes(length);
                if (segment.length < length) {
                    if (!whole) {
                        return null;
                    }
                    throw new IllegalStateException("chunk body ends inside a segment");
                }
                segments.add(new At(segment, 0, length));
                have += (int) new ByteReader(segment).varint();
            }
            return assemble(n, have, segments);
        } catch (IOException e) {
            if (!whole) {
                return null; // the front ended inside the compressed frame
            }
            throw new IllegalStateException("not a chunk body: " + e.getMessage(), e);
        }
    }

    /**
     * A chunk of {@code total} lines, of which the segments (newest first) hold the newest {@code have}: columns in
     * place, texts copied into one region, oldest first.
     */
    static ChunkData assemble(int total, int have, List<At> segments) {
        long[] times = new long[have];
        long[] offsets = new long[have];
        int[] subs = new int[have];
        byte[] flags = new byte[have];
        int[] starts = new int[have];
        int[] lengths = new int[have];
        int[] textAt = new int[segments.size()];
        int[] textLength = new int[segments.size()];
        int[] firstLine = new int[segments.size()];
        int hi = have;
        int textTotal = 0;
        for (int s = 0; s < segments.size(); s++) {
            At at = segments.get(s);
            ByteReader in = new ByteReader(at.b(), at.from(), at.end());
            int k = (int) in.varint();
            int lo = hi - k;
            columns(in, lo, hi, times, offsets, subs, flags);
            int bytes = 0;
            for (int i = lo; i < hi; i++) {
                lengths[i] = (int) in.varint();
                bytes += lengths[i] + 1;
            }
            in.need(bytes);
            textAt[s] = in.position();
            textLength[s] = bytes;
            firstLine[s] = lo;
            textTotal += bytes;
            hi = lo;
        }
        if (hi != 0) {
            throw new IllegalStateException("chunk body: segments hold " + (have - hi) + " lines, not " + have);
        }
        byte[] text = new byte[textTotal];
        int p = 0;
        for (int s = segments.size() - 1; s >= 0; s--) {
            System.arraycopy(segments.get(s).b(), textAt[s], text, p, textLength[s]);
            int end = s == 0 ? have : firstLine[s - 1];
            for (int i = firstLine[s]; i < end; i++) {
                starts[i] = p;
                p += lengths[i] + 1;
            }
        }
        return new ChunkData(have, total - have, times, offsets, subs, flags, starts, lengths, text, 0, textTotal);
    }

    /** A segment's columns of lines {@code [lo, hi)}: times and offsets (a base, then deltas), subs, flags. */
    private static void columns(ByteReader in, int lo, int hi, long[] times, long[] offsets, int[] subs, byte[] flags) {
        long t = in.fixed64LittleEndian();
        long o = in.fixed64LittleEndian();
        for (int i = lo; i < hi; i++) {
            t += in.zigzag();
            times[i] = t;
        }
        for (int i = lo; i < hi; i++) {
            o += in.zigzag();
            offsets[i] = o;
        }
        for (int i = lo; i < hi; i++) {
            subs[i] = (int) in.varint();
        }
        for (int i = lo; i < hi; i++) {
            flags[i] = (byte) in.get();
        }
    }
}
