package io.jobmon.logs.chunk;

import io.jobmon.contracts.bytes.ByteReader;

/**
 * Chunk bodies of format version 1 (before 2026-12-02), still read: after the header (version, line count, base time,
 * base offset) the columns of all lines — time deltas, offset deltas, record sub-indexes, flags, text lengths — then
 * the texts, each followed by {@code '\n'}, oldest first.
 */
final class ChunkCodecV1 {

    private ChunkCodecV1() {
    }

    /** @param in over the decompressed body, past its version */
    static ChunkData decode(ByteReader in) {
        int n = (int) in.varint();
        long t = in.fixed64LittleEndian();
        long o = in.fixed64LittleEndian();
        long[] times = new long[n];
        long[] offsets = new long[n];
        int[] subs = new int[n];
        byte[] flags = new byte[n];
        int[] starts = new int[n];
        int[] lengths = new int[n];
        for (int i = 0; i < n; i++) {
            t += in.zigzag();
            times[i] = t;
        }
        for (int i = 0; i < n; i++) {
            o += in.zigzag();
            offsets[i] = o;
        }
        for (int i = 0; i < n; i++) {
            subs[i] = (int) in.varint();
        }
        for (int i = 0; i < n; i++) {
            flags[i] = (byte) in.get();
        }
        for (int i = 0; i < n; i++) {
            lengths[i] = (int) in.varint();
        }
        int textFrom = in.position();
        int p = textFrom;
        for (int i = 0; i < n; i++) {
            starts[i] = p;
            p += lengths[i] + 1;
        }
        in.skip(p - textFrom);
        return new ChunkData(n, 0, times, offsets, subs, flags, starts, lengths, in.array(), textFrom, p);
    }
}
