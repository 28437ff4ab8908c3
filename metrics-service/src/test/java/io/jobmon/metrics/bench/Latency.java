package io.jobmon.metrics.bench;

import java.sql.Connection;
import java.sql.Statement;

/** How the benchmark times calls: one call, p50 and p99 after a warm-up, and the service's own count of its answers. */
final class Latency {

    /** Timed calls per figure and untimed calls before them: {@code -Dbench.calls}, {@code -Dbench.warmCalls}. */
    static final int CALLS = Integer.getInteger("bench.calls", 300);
    static final int WARM_CALLS = Integer.getInteger("bench.warmCalls", 300);

    private Latency() {
    }

    /** One call's time in ms. */
    static double once(String url, String token) throws Exception {
        long t = System.nanoTime();
        Systems.get(url, token);
        return (System.nanoTime() - t) / 1e6;
    }

    /** p50 and p99 in ms of {@code url} over {@link #CALLS} calls (300: a p99 of fewer would be the slowest call) after {@link #WARM_CALLS}. */
    static double[] latency(String url, String token) throws Exception {
        return latency(url, token, () -> {
        });
    }

    /**
     * p50 and p99 of {@link #CALLS} calls after {@link #WARM_CALLS} warm-up calls (every system alike; 300 leave a
     * fresh JVM still compiling the path: 3,000 measure a running service), {@code before} run ahead of each call,
     * untimed.
     */
    static double[] latency(String url, String token, Before before) throws Exception {
        for (int i = 0; i < WARM_CALLS; i++) {
            before.run();
            Systems.get(url, token);
        }
        double[] ms = new double[CALLS];
        for (int i = 0; i < CALLS; i++) {
            before.run();
            ms[i] = once(url, token);
        }
        return p50p99(ms);
    }

    /** p50 and p99 of call times (sorted in place). */
    private static double[] p50p99(double[] ms) {
        java.util.Arrays.sort(ms);
        return new double[] {ms[ms.length / 2], ms[(int) Math.ceil(0.99 * ms.length) - 1]};
    }

    /**
     * Two systems' p50 and p99 (ms) from calls taken in turns ({@link #WARM_CALLS} untimed rounds, then {@link #CALLS}
     * timed ones; who goes first alternates): both see the same moments of the machine, so a burst of other work
     * lands on both rather than on whichever was being measured then. Also the share of each one's timed calls over
     * {@code slowMs}.
     *
     * @return {p50 a, p99 a, p50 b, p99 b, share of a over slowMs, share of b over slowMs}
     */
    static double[] inTurns(String urlA, String tokenA, String urlB, String tokenB, double slowMs) throws Exception {
        for (int i = 0; i < WARM_CALLS; i++) {
            Systems.get(urlA, tokenA);
            Systems.get(urlB, tokenB);
        }
        double[] a = new double[CALLS];
        double[] b = new double[CALLS];
        for (int i = 0; i < CALLS; i++) {
            if (i % 2 == 0) {
                a[i] = once(urlA, tokenA);
                b[i] = once(urlB, tokenB);
            } else {
                b[i] = once(urlB, tokenB);
                a[i] = once(urlA, tokenA);
            }
        }
        double[] pa = p50p99(a);
        double[] pb = p50p99(b);
        return new double[] {pa[0], pa[1], pb[0], pb[1], over(a, slowMs), over(b, slowMs)};
    }

    private static double over(double[] calls, double ms) {
        int n = 0;
        for (double v : calls) {
            n += v > ms ? 1 : 0;
        }
        return (double) n / calls.length;
    }

    /** The count and seconds of the job metrics endpoint's answers so far, from the service's own HTTP timer. */
    static double[] served(String mgmtBase) throws Exception {
        double[] out = new double[2];
        for (String line : Systems.get(mgmtBase + "/q/metrics", null).split("\n")) {
            if (line.startsWith("http_server_requests_seconds_") && line.contains("uri=\"/api/v1/jobs/{id}/metrics\"")
                    && line.contains("status=\"200\"")) {
                double v = Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                if (line.startsWith("http_server_requests_seconds_count")) {
                    out[0] += v;
                } else if (line.startsWith("http_server_requests_seconds_sum")) {
                    out[1] += v;
                }
            }
        }
        return out;
    }

    interface Before {
        void run() throws Exception;
    }

    /**
     * Before each call, the change notices of the query job and its node, as when a scrape or an event of the job
     * lands between two views: the chart then reads every lookup and its blocks from the database again (what stayed
     * decoded is not decoded again). 20 ms for the notice to arrive.
     */
    static Before changed(Connection c) {
        return () -> {
            try (Statement s = c.createStatement()) {
                s.execute("SELECT pg_notify('metrics_changes', 'head:query-node-000'),"
                        + " pg_notify('metrics_changes', 'job:query-job')");
            }
            Thread.sleep(20);
        };
    }
}
