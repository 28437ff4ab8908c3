package io.jobmon.metrics.store.codec;

import io.jobmon.contracts.bytes.ByteReader;
import io.jobmon.contracts.bytes.ByteWriter;
import java.util.Arrays;

/**
 * Rollup points of one series at one resolution: per bucket (its start time) the min, max, sum, count and last
 * sample, and for counters the increase (resets handled: a drop counts from zero). Merging keeps buckets
 * sorted, a bucket present on both sides taken from the newer.
 */
public final class Rollups {

    public long[] t;
    public double[] min;
    public double[] max;
    public double[] sum;
    public double[] count;
    public double[] last;
    public double[] inc;
    public int n;

    public Rollups(int capacity) {
        int c = Math.max(4, capacity);
        t = new long[c];
        min = new double[c];
        max = new double[c];
        sum = new double[c];
        count = new double[c];
        last = new double[c];
        inc = new double[c];
    }

    public void add(long time, double mn, double mx, double s, double c, double l, double i) {
        room(1);
        t[n] = time;
        min[n] = mn;
        max[n] = mx;
        sum[n] = s;
        count[n] = c;
        last[n] = l;
        inc[n] = i;
        n++;
    }

    /** Grows the columns (at least doubling) to hold {@code more} buckets after the {@code n} held. */
    private void room(int more) {
        if (n + more > t.length) {
            int c = Math.max(n + more, n * 2);
            t = Arrays.copyOf(t, c);
            min = Arrays.copyOf(min, c);
            max = Arrays.copyOf(max, c);
            sum = Arrays.copyOf(sum, c);
            count = Arrays.copyOf(count, c);
            last = Arrays.copyOf(last, c);
            inc = Arrays.copyOf(inc, c);
        }
    }

    /** Appends buckets {@code [from, to)} of {@code r}, column by column. */
    private void append(Rollups r, int from, int to) {
        int k = to - from;
        if (k <= 0) {
            return;
        }
        room(k);
        System.arraycopy(r.t, from, t, n, k);
        System.arraycopy(r.min, from, min, n, k);
        System.arraycopy(r.max, from, max, n, k);
        System.arraycopy(r.sum, from, sum, n, k);
        System.arraycopy(r.count, from, count, n, k);
        System.arraycopy(r.last, from, last, n, k);
        System.arraycopy(r.inc, from, inc, n, k);
        n += k;
    }

    /** The first index in {@code [from, to)} whose bucket starts at or after {@code time} ({@code to} if none). */
    private int lowerBound(int from, int to, long time) {
        int lo = from;
        int hi = to;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (t[mid] < time) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * Buckets {@code raw} (sorted) by {@code bucketMs}. NaN samples (Prometheus stale markers) are skipped.
     *
     * @param before the last sample before {@code raw} (NaN when unknown): a counter's first increase starts there
     */
    public static Rollups of(Points raw, long bucketMs, boolean counter, double before) {
        Rollups out = new Rollups(raw.n / 4 + 1);
        double prev = before;
        int i = 0;
        while (i < raw.n) {
            long bucket = Math.floorDiv(raw.t[i], bucketMs) * bucketMs;
            double mn = Double.POSITIVE_INFINITY;
            double mx = Double.NEGATIVE_INFINITY;
            double s = 0;
            double c = 0;
            double l = Double.NaN;
            double increase = 0;
            for (; i < raw.n && raw.t[i] < bucket + bucketMs; i++) {
                double x = raw.v[i];
                if (Double.isNaN(x)) {
                    continue;
                }
                mn = Math.min(mn, x);
                mx = Math.max(mx, x);
                s += x;
                c++;
                l = x;
                if (counter && !Double.isNaN(prev)) {
                    increase += x >= prev ? x - prev : x;
                }
                prev = x;
            }
            if (c > 0) {
                out.add(bucket, mn, mx, s, c, l, counter ? increase : Double.NaN);
            }
        }
        return out;
    }

    /** Combines finer rollups into coarser buckets (e.g. 1 min into 1 h). */
    public static Rollups coarsen(Rollups fine, long bucketMs) {
        Rollups out = new Rollups(fine.n / 8 + 1);
        int i = 0;
        while (i < fine.n) {
            long bucket = Math.floorDiv(fine.t[i], bucketMs) * bucketMs;
            double mn = Double.POSITIVE_INFINITY;
            double mx = Double.NEGATIVE_INFINITY;
            double s = 0;
            double c = 0;
            double l = Double.NaN;
            double increase = 0;
            boolean counter = false;
            for (; i < fine.n && fine.t[i] < bucket + bucketMs; i++) {
                mn = Math.min(mn, fine.min[i]);
                mx = Math.max(mx, fine.max[i]);
                s += fine.sum[i];
                c += fine.count[i];
                l = fine.last[i];
                if (!Double.isNaN(fine.inc[i])) {
                    counter = true;
                    increase += fine.inc[i];
                }
            }
            out.add(bucket, mn, mx, s, c, l, counter ? increase : Double.NaN);
        }
        return out;
    }

    /** Both sides' buckets in time order; a bucket on both sides is taken from {@code newer}. */
    public static Rollups merge(Rollups older, Rollups newer) {
        Rollups out = new Rollups(older.n + newer.n);
        int a = 0;
        int b = 0;
        // runs of one side before the other's next bucket are copied whole (usually all of one side, then the other)
        while (a < older.n && b < newer.n) {
            if (older.t[a] < newer.t[b]) {
                int e = older.lowerBound(a, older.n, newer.t[b]);
                out.append(older, a, e);
                a = e;
            } else {
                if (older.t[a] == newer.t[b]) {
                    a++; // in both: the newer bucket
                }
                int e = a < older.n ? Math.max(b + 1, newer.lowerBound(b, newer.n, older.t[a])) : newer.n;
                out.append(newer, b, e);
                b = e;
            }
        }
        out.append(older, a, older.n);
        out.append(newer, b, newer.n);
        return out;
    }

    /**
     * All chunks' buckets in time order, a bucket in several chunks taken from the later one in the list. Chunks of
     * disjoint time ranges in order (the usual case) are appended in one pass.
     */
    public static Rollups concat(java.util.List<Rollups> chunks) {
        if (chunks.size() == 1) {
            return chunks.get(0);
        }
        int total = 0;
        boolean disjoint = true;
        long lastT = Long.MIN_VALUE;
        for (Rollups r : chunks) {
            total += r.n;
            if (r.n > 0) {
                disjoint &= r.t[0] > lastT;
                lastT = r.t[r.n - 1];
            }
        }
        if (!disjoint) {
            Rollups out = new Rollups(0);
            for (Rollups r : chunks) {
                out = merge(out, r);
            }
            return out;
        }
        Rollups out = new Rollups(total);
        for (Rollups r : chunks) {
            out.append(r, 0, r.n);
        }
        return out;
    }

    /** ByteWriter held (for a cache's weight). */
    public long bytes() {
        return 64L + t.length * 56L;
    }

    /** The buckets with from <= t < to. */
    public Rollups slice(long from, long to) {
        int lo = lowerBound(0, n, from);
        int hi = lowerBound(lo, n, to);
        Rollups out = new Rollups(hi - lo);
        out.append(this, lo, hi);
        return out;
    }

    public byte[] encode() {
        ByteWriter raw = new ByteWriter(n * 12 + 16);
        raw.varint(n);
        Columns.writeTimes(raw, t, 0, n);
        for (double[] col : new double[][] {min, max, sum, count, last, inc}) {
            Columns.writeValues(raw, col, 0, n);
        }
        return Zstd.compress(raw, ChunkCodec.LEVEL);
    }

    public static Rollups decode(byte[] block) {
        ByteReader in = new ByteReader(Zstd.decompress(block));
        int n = (int) in.varint();
        Rollups r = new Rollups(n);
        Columns.readTimes(in, r.t, 0, n);
        for (double[] col : new double[][] {r.min, r.max, r.sum, r.count, r.last, r.inc}) {
            Columns.readValues(in, col, 0, n);
        }
        r.n = n;
        return r;
    }
}
