package io.jobmon.metrics.store.codec;

import java.util.Map;
import java.util.function.LongPredicate;

/**
 * A head block: the samples of many series of one node written by one batch, series after series
 * ({@code id, count, times, values}), zstd. Reading keeps only the series asked for.
 */
public final class HeadCodec {

    /** Head blocks are written by every batch and read a few times before compaction: fast compression. */
    public static final int LEVEL = 1;

    private HeadCodec() {
    }

    public static byte[] encode(Map<Long, Points> series) {
        int total = 0;
        for (Points p : series.values()) {
            total += p.n;
        }
        Bytes raw = new Bytes(total * 4 + series.size() * 8 + 16);
        raw.varint(series.size());
        for (Map.Entry<Long, Points> e : series.entrySet()) {
            Points p = e.getValue();
            raw.varint(e.getKey());
            raw.varint(p.n);
            Columns.writeTimes(raw, p.t, 0, p.n);
            Columns.writeValues(raw, p.v, 0, p.n);
        }
        return Zstd.compress(raw, LEVEL);
    }

    /** Adds the samples of the wanted series to {@code into} (series id → points, created as needed). */
    public static void decode(byte[] block, LongPredicate wanted, Map<Long, Points> into) {
        Bytes.Reader in = new Bytes.Reader(Zstd.decompress(block));
        int count = (int) in.varint();
        long[] t = new long[64];
        double[] v = new double[64];
        for (int s = 0; s < count; s++) {
            long id = in.varint();
            int n = (int) in.varint();
            if (t.length < n) {
                t = new long[n];
                v = new double[n];
            }
            Columns.readTimes(in, t, 0, n);
            Columns.readValues(in, v, 0, n);
            if (wanted.test(id)) {
                Points p = into.computeIfAbsent(id, k -> new Points(n));
                for (int i = 0; i < n; i++) {
                    p.add(t[i], v[i]);
                }
            }
        }
    }
}
