package io.jobmon.logs.bench;

import io.jobmon.logs.chunk.ChunkStore;
import io.jobmon.logs.query.ChunkQueries;
import io.jobmon.logs.query.Counter;
import io.jobmon.logs.query.LineMatcher;
import io.jobmon.logs.query.Scope;
import io.vertx.mutiny.sqlclient.Pool;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;

/**
 * The frequent-keyword search of {@link SearchBenchmark} with each store in turn, round after round (the stores warm):
 * on a machine whose load moves, each round's ratios compare searches made a second apart, not minutes.
 */
final class Alternating {

    private Alternating() {
    }

    /** {@code rounds} rounds of one count per store; prints each store's median and its median ratio to the first store's. */
    static void searches(Map<String, ChunkStore> stores, Pool pool, ExecutorService threads, Scope scope, int rounds) {
        List<String> names = new ArrayList<>(stores.keySet());
        List<Counter> counters = names.stream().map(n -> new Counter(new ChunkQueries(pool, stores.get(n)), threads)).toList();
        double[][] times = new double[names.size()][rounds];
        for (int r = 0; r < rounds; r++) {
            for (int s = 0; s < names.size(); s++) {
                LineMatcher m = LineMatcher.of(Workload.FREQUENT, false, null, 512, 600_000);
                long t = System.nanoTime();
                counters.get(s).count(scope, Long.MIN_VALUE, Long.MAX_VALUE, m);
                times[s][r] = (System.nanoTime() - t) / 1e9;
            }
        }
        for (int s = 0; s < names.size(); s++) {
            double[] ratio = new double[rounds];
            for (int r = 0; r < rounds; r++) {
                ratio[r] = times[s][r] / times[0][r];
            }
            System.out.printf("alternating '%s' search, %s: %s s; median %.3f s, median ratio to %s %.2f x%n",
                    Workload.FREQUENT, names.get(s), Arrays.toString(times[s]), median(times[s]), names.get(0), median(ratio));
        }
    }

    private static double median(double[] v) {
        double[] c = v.clone();
        Arrays.sort(c);
        return c.length % 2 == 1 ? c[c.length / 2] : (c[c.length / 2 - 1] + c[c.length / 2]) / 2;
    }
}
