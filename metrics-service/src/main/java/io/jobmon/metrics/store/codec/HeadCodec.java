package io.jobmon.metrics.store.codec;

import io.jobmon.contracts.bytes.ByteReader;
import io.jobmon.contracts.bytes.ByteWriter;
import java.util.Map;
import java.util.function.LongPredicate;

/**
 * A head block: the samples of many series of one node written by one batch, zstd. Layout (version 2): {@code 0, 2,
 * count}, then per series {@code id, n, length} and its times and values ({@link Columns}) in {@code length} bytes,
 * so that a reader skips the series it does not want without decoding them. Version 1 blocks (no marker, no lengths:
 * {@code count, (id, n, times, values)*}) are still read.
 */
public final class HeadCodec {

    /** Head blocks are written by every batch and read a few times before compaction: fast compression. */
    public static final int LEVEL = 1;
    private static final int VERSION = 2;

    private HeadCodec() {
    }

    public static byte[] encode(Map<Long, Points> series) {
        int total = 0;
        for (Points p : series.values()) {
            total += p.n;
        }
        ByteWriter raw = new ByteWriter(total * 4 + series.size() * 12 + 16);
        ByteWriter one = new ByteWriter(256);
        raw.varint(0);
        raw.varint(VERSION);
        raw.varint(series.size());
        for (Map.Entry<Long, Points> e : series.entrySet()) {
            Points p = e.getValue();
            one.reset();
            Columns.writeTimes(one, p.t, 0, p.n);
            Columns.writeValues(one, p.v, 0, p.n);
            raw.varint(e.getKey());
            raw.varint(p.n);
            raw.varint(one.size());
            raw.put(one.array(), 0, one.size());
        }
        return Zstd.compress(raw, LEVEL);
    }

    /** Adds the samples of the wanted series to {@code into} (series id → points, created as needed). */
    public static void decode(byte[] block, LongPredicate wanted, Map<Long, Points> into) {
        ByteReader in = new ByteReader(Zstd.decompress(block));
        long first = in.varint();
        boolean v2 = first == 0;
        if (v2 && in.varint() != VERSION) {
            throw new IllegalStateException("unknown head block version");
        }
        int count = (int) (v2 ? in.varint() : first);
        long[] t = new long[64];
        double[] v = new double[64];
        for (int s = 0; s < count; s++) {
            long id = in.varint();
            int n = (int) in.varint();
            if (v2) {
                int length = (int) in.varint();
                if (!wanted.test(id)) {
                    in.skip(length);
                    continue;
                }
            }
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
