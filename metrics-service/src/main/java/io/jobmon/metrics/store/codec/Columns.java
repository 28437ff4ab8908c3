package io.jobmon.metrics.store.codec;

import io.jobmon.contracts.bytes.ByteReader;
import io.jobmon.contracts.bytes.ByteWriter;

/**
 * The two column encodings of every block: timestamps as delta-of-delta zig-zag varints (a steady 15 s scrape
 * becomes a run of zero bytes), and values either as zig-zag deltas when all are whole numbers (utilisation,
 * MiB, clocks, counters) or Gorilla-style as the XOR with the previous value's bits, bit-reversed so that the
 * common trailing zeros become small varints. zstd on top squeezes the runs.
 */
public final class Columns {

    private static final int WHOLE = 1;
    private static final int XOR = 2;
    private static final double MAX_WHOLE = 1L << 52;

    private Columns() {
    }

    public static void writeTimes(ByteWriter out, long[] t, int from, int n) {
        long prev = 0;
        long prevDelta = 0;
        for (int i = 0; i < n; i++) {
            long x = t[from + i];
            if (i == 0) {
                out.zigzag(x);
            } else {
                long delta = x - prev;
                out.zigzag(delta - prevDelta);
                prevDelta = delta;
            }
            prev = x;
        }
    }

    public static void readTimes(ByteReader in, long[] t, int from, int n) {
        long prev = 0;
        long prevDelta = 0;
        for (int i = 0; i < n; i++) {
            if (i == 0) {
                prev = in.zigzag();
            } else {
                prevDelta += in.zigzag();
                prev += prevDelta;
            }
            t[from + i] = prev;
        }
    }

    public static void writeValues(ByteWriter out, double[] v, int from, int n) {
        boolean whole = true;
        for (int i = 0; i < n && whole; i++) {
            double x = v[from + i];
            whole = x == Math.rint(x) && Math.abs(x) < MAX_WHOLE && !(x == 0 && Double.doubleToRawLongBits(x) != 0);
        }
        if (whole) {
            out.put(WHOLE);
            long prev = 0;
            for (int i = 0; i < n; i++) {
                long x = (long) v[from + i];
                out.zigzag(x - prev);
                prev = x;
            }
        } else {
            out.put(XOR);
            long prev = 0;
            for (int i = 0; i < n; i++) {
                long bits = Double.doubleToRawLongBits(v[from + i]);
                out.varint(Long.reverse(bits ^ prev));
                prev = bits;
            }
        }
    }

    public static void readValues(ByteReader in, double[] v, int from, int n) {
        int mode = in.get();
        long prev = 0;
        if (mode == WHOLE) {
            for (int i = 0; i < n; i++) {
                prev += in.zigzag();
                v[from + i] = prev;
            }
        } else if (mode == XOR) {
            for (int i = 0; i < n; i++) {
                prev ^= Long.reverse(in.varint());
                v[from + i] = Double.longBitsToDouble(prev);
            }
        } else {
            throw new IllegalStateException("unknown value encoding " + mode);
        }
    }
}
