package io.jobmon.metrics.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.contracts.bytes.ByteWriter;
import io.jobmon.metrics.store.codec.ChunkCodec;
import io.jobmon.metrics.store.codec.Columns;
import io.jobmon.metrics.store.codec.HeadCodec;
import io.jobmon.metrics.store.codec.Points;
import io.jobmon.metrics.store.codec.Rollups;
import io.jobmon.metrics.store.codec.Zstd;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Chunks, head blocks and rollups round-trip exactly and stay small. */
class CodecTest {

    static Points points(int n, java.util.function.IntToDoubleFunction v, long jitterMs) {
        Random r = new Random(42);
        Points p = new Points(n);
        long t = 1_748_772_000_000L;
        for (int i = 0; i < n; i++) {
            p.add(t + i * 15_000L + (jitterMs == 0 ? 0 : r.nextInt((int) jitterMs)), v.applyAsDouble(i));
        }
        return p;
    }

    static void assertSame(Points a, Points b) {
        assertEquals(a.n, b.n);
        assertArrayEquals(Arrays.copyOf(a.t, a.n), Arrays.copyOf(b.t, b.n));
        for (int i = 0; i < a.n; i++) {
            assertEquals(Double.doubleToRawLongBits(a.v[i]), Double.doubleToRawLongBits(b.v[i]), "value " + i);
        }
    }

    @Test
    void aTwoHourChunkOfGaugesCountersAndFractionsRoundTripsBitForBitInFewBytesPerSample() {
        Random r = new Random(7);
        Points util = points(480, i -> Math.min(100, Math.max(0, 90 + r.nextInt(11) - 5)), 0);
        Points energy = points(480, i -> 8_437_462_913.0 + i * 4_100_000.0 + r.nextInt(1000), 0);
        Points ratio = points(480, i -> Math.round(r.nextDouble() * 1e6) / 1e6, 40);
        Points special = points(5, i -> new double[] {Double.NaN, -0.0, Double.POSITIVE_INFINITY, 1e-300, -7}[i], 0);
        for (Points p : new Points[] {util, energy, ratio, special}) {
            assertSame(p, ChunkCodec.decode(ChunkCodec.encode(p)));
        }
        assertTrue(ChunkCodec.encode(util).length < 480 * 1.2, "util: " + ChunkCodec.encode(util).length + " bytes");
        assertTrue(ChunkCodec.encode(energy).length < 480 * 3.5, "energy: " + ChunkCodec.encode(energy).length);
    }

    @Test
    void aHeadBlockGivesBackOnlyTheSeriesAskedFor() {
        Map<Long, Points> block = new LinkedHashMap<>();
        for (long id = 1; id <= 30; id++) {
            long k = id;
            block.put(id, points(8, i -> k * 100 + i, 0));
        }
        Map<Long, Points> into = new HashMap<>();
        HeadCodec.decode(HeadCodec.encode(block), id -> id == 3 || id == 30, into);
        assertEquals(2, into.size());
        assertSame(block.get(3L), into.get(3L));
        assertSame(block.get(30L), into.get(30L));
    }

    @Test
    void aHeadBlockWrittenBeforeSeriesLengthsWereRecordedIsStillRead() {
        Map<Long, Points> block = new LinkedHashMap<>();
        for (long id = 1; id <= 5; id++) {
            long k = id;
            block.put(id, points(8, i -> k * 100 + i, 0));
        }
        // the first layout: count, then per series id, n, times, values (no marker, no lengths)
        ByteWriter raw = new ByteWriter(1024);
        raw.varint(block.size());
        block.forEach((id, p) -> {
            raw.varint(id);
            raw.varint(p.n);
            Columns.writeTimes(raw, p.t, 0, p.n);
            Columns.writeValues(raw, p.v, 0, p.n);
        });
        Map<Long, Points> into = new HashMap<>();
        HeadCodec.decode(Zstd.compress(raw, HeadCodec.LEVEL), id -> id == 2 || id == 5, into);
        assertEquals(2, into.size());
        assertSame(block.get(2L), into.get(2L));
        assertSame(block.get(5L), into.get(5L));
    }

    @Test
    void rollupChunksOfOneSeriesReadTogetherKeepEveryBucketOnceTheLaterChunkWinning() {
        long t0 = 1_748_736_000_000L;
        Rollups day = new Rollups(4);
        Rollups window = new Rollups(4);
        Rollups next = new Rollups(4);
        for (int i = 0; i < 4; i++) {
            day.add(t0 + i * 60_000L, 1, 1, 1, 1, 1, Double.NaN);
            window.add(t0 + (2 + i) * 60_000L, 2, 2, 2, 1, 2, Double.NaN); // overlaps the day chunk's last two
            next.add(t0 + (10 + i) * 60_000L, 3, 3, 3, 1, 3, Double.NaN);
        }
        Rollups disjoint = Rollups.concat(List.of(day, next));
        assertEquals(8, disjoint.n);
        assertArrayEquals(new double[] {1, 1, 1, 1, 3, 3, 3, 3}, Arrays.copyOf(disjoint.last, 8));
        Rollups overlapping = Rollups.concat(List.of(day, window, next));
        assertEquals(10, overlapping.n);
        assertArrayEquals(new double[] {1, 1, 2, 2, 2, 2, 3, 3, 3, 3}, Arrays.copyOf(overlapping.last, 10));
        for (int i = 1; i < overlapping.n; i++) {
            assertTrue(overlapping.t[i] > overlapping.t[i - 1], "in time order");
        }
    }

    @Test
    void rollupsKeepMinMaxSumCountLastAndACountersIncreaseAcrossResets() {
        Points p = new Points(8);
        long t0 = 1_748_772_000_000L;
        double[] v = {10, 20, 30, 5, 15, 25, 35, 45};
        for (int i = 0; i < v.length; i++) {
            p.add(t0 + i * 15_000L, v[i]);
        }
        Rollups r = Rollups.of(p, 60_000, true, 0);
        assertEquals(2, r.n);
        assertEquals(5, r.min[0]);
        assertEquals(30, r.max[0]);
        assertEquals(65, r.sum[0]);
        assertEquals(4, r.count[0]);
        assertEquals(5, r.last[0]);
        assertEquals(10 + 10 + 10 + 5, r.inc[0], "the drop to 5 is a reset: counts 5");
        assertEquals(10 + 10 + 10 + 10, r.inc[1]);
        Rollups back = Rollups.decode(r.encode());
        assertArrayEquals(Arrays.copyOf(r.sum, 2), Arrays.copyOf(back.sum, 2));
        Rollups hour = Rollups.coarsen(r, 3_600_000);
        assertEquals(1, hour.n);
        assertEquals(75, hour.inc[0]);
        assertEquals(185, hour.sum[0]);
        assertEquals(45, hour.last[0]);
        assertTrue(Double.isNaN(Rollups.of(p, 60_000, false, Double.NaN).inc[0]), "gauges have no increase");
    }
}
