package io.jobmon.metrics.store.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Merging, concatenating and slicing rollups keep every bucket once, in time order, the newer side's on a tie. */
class RollupsTest {

    /** Random sorted buckets over minutes {@code [from, from + span)}, each value naming its side and minute. */
    static Rollups random(Random rnd, int from, int span, double side) {
        Rollups r = new Rollups(0);
        for (int m = from; m < from + span; m++) {
            if (rnd.nextInt(3) > 0) {
                r.add(m * 60_000L, side, m, side + m, 1, m, Double.NaN);
            }
        }
        return r;
    }

    static Map<Long, Double> asMap(Rollups r) {
        Map<Long, Double> out = new TreeMap<>();
        for (int i = 0; i < r.n; i++) {
            out.put(r.t[i], r.min[i]);
            assertEquals(r.min[i] + r.t[i] / 60_000L, r.sum[i], "the columns of a bucket stay together");
        }
        return out;
    }

    static void assertSorted(Rollups r) {
        for (int i = 1; i < r.n; i++) {
            assertEquals(true, r.t[i - 1] < r.t[i], "bucket " + i + " after " + (i - 1));
        }
    }

    @Test
    void mergeKeepsEachBucketOnceTakingTheNewerOnATie() {
        Random rnd = new Random(7);
        for (int round = 0; round < 500; round++) {
            Rollups older = random(rnd, rnd.nextInt(50), rnd.nextInt(80), 1);
            Rollups newer = random(rnd, rnd.nextInt(50), rnd.nextInt(80), 2);
            Map<Long, Double> expected = new TreeMap<>(asMap(older));
            expected.putAll(asMap(newer));
            Rollups merged = Rollups.merge(older, newer);
            assertSorted(merged);
            assertEquals(expected, asMap(merged), "round " + round);
        }
    }

    @Test
    void concatOfDisjointOrOverlappingChunksIsTheirMergeInOrder() {
        Random rnd = new Random(11);
        for (int round = 0; round < 200; round++) {
            List<Rollups> chunks = new ArrayList<>();
            Map<Long, Double> expected = new TreeMap<>();
            boolean overlapping = round % 2 == 0;
            for (int c = 0; c < 1 + rnd.nextInt(6); c++) {
                Rollups r = random(rnd, overlapping ? rnd.nextInt(100) : c * 100, 60, c);
                chunks.add(r);
                expected.putAll(asMap(r));
            }
            Rollups all = Rollups.concat(chunks);
            assertSorted(all);
            assertEquals(expected, asMap(all), "round " + round);
        }
    }

    @Test
    void aSliceHoldsTheBucketsFromItsStartUpToItsEnd() {
        Random rnd = new Random(13);
        Rollups r = random(rnd, 0, 1000, 1);
        for (int round = 0; round < 200; round++) {
            long from = rnd.nextInt(1100) * 60_000L - 30_000L * rnd.nextInt(2);
            long to = from + rnd.nextInt(500) * 60_000L;
            Map<Long, Double> expected = new TreeMap<>();
            asMap(r).forEach((t, v) -> {
                if (t >= from && t < to) {
                    expected.put(t, v);
                }
            });
            assertEquals(expected, asMap(r.slice(from, to)), from + ".." + to);
        }
    }
}
