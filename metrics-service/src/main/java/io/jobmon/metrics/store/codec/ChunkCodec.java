package io.jobmon.metrics.store.codec;

import io.jobmon.contracts.bytes.ByteReader;
import io.jobmon.contracts.bytes.ByteWriter;

/** One series' raw samples as a block: count, timestamps, values (see {@link Columns}), zstd. */
public final class ChunkCodec {

    /** Chunks are written once per window: spend a little more CPU for a smaller block. */
    public static final int LEVEL = 3;

    private ChunkCodec() {
    }

    public static byte[] encode(Points p) {
        ByteWriter raw = new ByteWriter(p.n * 3 + 16);
        raw.varint(p.n);
        Columns.writeTimes(raw, p.t, 0, p.n);
        Columns.writeValues(raw, p.v, 0, p.n);
        return Zstd.compress(raw, LEVEL);
    }

    public static Points decode(byte[] block) {
        ByteReader in = new ByteReader(Zstd.decompress(block));
        int n = (int) in.varint();
        Points p = new Points(n);
        Columns.readTimes(in, p.t, 0, n);
        Columns.readValues(in, p.v, 0, n);
        p.n = n;
        return p;
    }
}
