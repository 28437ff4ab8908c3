package io.jobmon.logs.chunk;

/**
 * Chunk bodies of format version 1 (before 2026-12-02), still read: after the header (version, line count, base time,
 * base offset) the columns of all lines — time deltas, offset deltas, record sub-indexes, flags, text lengths — then
 * the texts, each followed by {@code '\n'}, oldest first.
 */
final class ChunkCodecV1 {

    private ChunkCodecV1() {
    }

    /** @param b the decompressed body, {@code pos} past its version */
    static ChunkData decode(byte[] b, int[] pos) {
        int n = (int) Bytes.varint(b, pos);
        long t = Bytes.fixed64(b, pos);
        long o = Bytes.fixed64(b, pos);
        long[] times = new long[n];
        long[] offsets = new long[n];
        int[] subs = new int[n];
        byte[] flags = new byte[n];
        int[] starts = new int[n];
        int[] lengths = new int[n];
        for (int i = 0; i < n; i++) {
            t += Bytes.unzigzag(Bytes.varint(b, pos));
            times[i] = t;
        }
        for (int i = 0; i < n; i++) {
            o += Bytes.unzigzag(Bytes.varint(b, pos));
            offsets[i] = o;
        }
        for (int i = 0; i < n; i++) {
            subs[i] = (int) Bytes.varint(b, pos);
        }
        for (int i = 0; i < n; i++) {
            flags[i] = b[pos[0]++];
        }
        for (int i = 0; i < n; i++) {
            lengths[i] = (int) Bytes.varint(b, pos);
        }
        int textFrom = pos[0];
        int p = textFrom;
        for (int i = 0; i < n; i++) {
            starts[i] = p;
            p += lengths[i] + 1;
        }
        return new ChunkData(n, 0, times, offsets, subs, flags, starts, lengths, b, textFrom, p);
    }
}
