package io.jobmon.metrics.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.testsupport.EmbeddedPostgresDb;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;

/** {@link MetricsBenchmark}'s prometheus-mode part (ADR 0036, 0044). */
final class PromMode {

    /** jobmon's default {@code prometheus.settled-after}. */
    private static final long SETTLED_MS = 120_000;

    private PromMode() {
    }

    /**
     * jobmon with {@code jobmon.metrics.storage=prometheus} (ADR 0036) on the same database, its charts read from the
     * VictoriaMetrics that holds the same samples, side by side with VictoriaMetrics' own {@code query_range}: what
     * attribution adds to the engine.
     */
    static void run(String bootstrap, EmbeddedPostgresDb.Connection db, Systems.Proc vm, String jmWeek,
            String jmHourPath, String promWeek, String promHour, String alice, JsonNode builtinWeek) throws Exception {
        int mgmt = Systems.freePort();
        Systems.Proc pm = Systems.jobmon("jobmon-prometheus", bootstrap, db.url(), db.user(), db.password(),
                "bench-prom-" + UUID.randomUUID(), mgmt, Map.of("jobmon.metrics.storage", "prometheus",
                        "jobmon.metrics.prometheus.url", vm.base(), "jobmon.metrics.prometheus.node-label", "Hostname",
                        // VictoriaMetrics has the samples already (the benchmark wrote them): nothing to forward
                        "mp.messaging.incoming.samples.topic", "bench.prometheus-mode.unused",
                        "jobmon.metrics.prometheus.split", System.getProperty("bench.promSplit", "1d")));
        try {
            Systems.awaitUp("http://127.0.0.1:" + mgmt + "/q/health/ready", Duration.ofSeconds(300));
            long first = System.nanoTime();
            JsonNode week = CloudEvents.MAPPER.readTree(Systems.get(pm.base() + jmWeek, alice));
            double firstMs = (System.nanoTime() - first) / 1e6;
            System.out.printf("jobmon (prometheus mode) 7-day chart: %d series × %d points from %s; the same as the"
                    + " builtin store's: %s; first call %.1f ms; hour first call %.1f ms%n", week.get("series").size(),
                    week.get("series").get(0).get("points").size(), week.get("resolution").asText(),
                    week.get("series").equals(builtinWeek.get("series")), firstMs, Latency.once(pm.base() + jmHourPath,
                            alice));
            // the charts' range ends at the data's end: measured once it is settled (ADR 0044), as a finished job's
            long end = Instant.parse(jmWeek.substring(jmWeek.indexOf("&to=") + 4)).toEpochMilli();
            long wait = end + SETTLED_MS + 1000 - System.currentTimeMillis();
            System.out.printf("the range ends %.0f s before now; waiting %.0f s for it to settle%n",
                    (System.currentTimeMillis() - end) / 1e3, Math.max(0, wait) / 1e3);
            Thread.sleep(Math.max(0, wait));
            System.out.println("load before the prometheus-mode queries: " + uptime());
            charts("prometheus mode on victoria-metrics (p50/p99 ms, CPU ms per call of the answering process): 7-day"
                    + " chart jobmon", " vs victoria-metrics query_range ", pm, vm, jmWeek, jmHourPath, promWeek, promHour,
                    alice);
            // a live chart: from the hour before the data's end to now (no `to`: the running job's now; VictoriaMetrics'
            // end defaults to now), so its newest part is never settled and each call asks the engine for it
            String from = jmHourPath.substring(jmHourPath.indexOf("&from=") + 6, jmHourPath.indexOf("&to="));
            String liveStart = promHour.substring(promHour.indexOf("&start=") + 7, promHour.indexOf("&end="));
            double[] jl = measured(pm, pm.base() + jmHourPath.substring(0, jmHourPath.indexOf("&to=")), alice);
            double[] vl = measured(vm, vm.base() + promHour.substring(0, promHour.indexOf("&start=")) + "&start="
                    + liveStart + "&step=15", null);
            System.out.printf("prometheus mode, live chart from %s to now (p50/p99 ms, CPU ms per call): jobmon"
                    + " %.1f/%.1f (%.2f) vs victoria-metrics %.1f/%.1f (%.2f) (%.2f × / %.2f ×)%n", from, jl[0], jl[1], jl[2],
                    vl[0], vl[1], vl[2], jl[0] / vl[0], jl[1] / vl[1]);
            // jobmon's floor: an answer that touches neither the engine nor the database
            double[] live = Latency.latency("http://127.0.0.1:" + mgmt + "/q/health/live", null);
            double[] cat = measured(pm, pm.base() + "/api/v1/metrics/catalogue", alice);
            System.out.printf("prometheus mode floors (p50/p99 ms): liveness (no token, no database) %.1f/%.1f,"
                    + " catalogue (token, no database, no engine) %.1f/%.1f (%.2f ms CPU per call); load %s%n", live[0],
                    live[1], cat[0], cat[1], cat[2], uptime());
            // both charts again, last: the service's compilations and the first calls' garbage are over by now
            charts("prometheus mode again (p50/p99 ms, CPU ms per call): 7-day jobmon", " vs ", pm, vm, jmWeek,
                    jmHourPath, promWeek, promHour, alice);
            // and in turns, call by call: both systems through the same moments of the machine (Latency.inTurns)
            double[] tw = Latency.inTurns(pm.base() + jmWeek, alice, vm.base() + promWeek, null, SLOW_MS);
            double[] th = Latency.inTurns(pm.base() + jmHourPath, alice, vm.base() + promHour, null, SLOW_MS);
            double[] tf = Latency.inTurns("http://127.0.0.1:" + mgmt + "/q/health/live", null, vm.base() + "/health", null,
                    SLOW_MS);
            System.out.printf("prometheus mode in turns (p50/p99 ms; calls over %.0f ms): 7-day jobmon %s vs %s (%.2f × / %.2f ×);"
                    + " 1-hour jobmon %s vs %s (%.2f × / %.2f ×); liveness jobmon %s vs victoria-metrics /health %s; load %s%n",
                    SLOW_MS, turn(tw, 0), turn(tw, 1), tw[0] / tw[2], tw[1] / tw[3], turn(th, 0), turn(th, 1), th[0] / th[2],
                    th[1] / th[3], turn(tf, 0), turn(tf, 1), uptime());
            // -Dbench.promProfileCalls=N: the three charts N times more in turns, for a profiler attached meanwhile
            String[] profiled = {jmWeek, jmHourPath, jmHourPath.substring(0, jmHourPath.indexOf("&to="))};
            for (int i = 0; i < Integer.getInteger("bench.promProfileCalls", 0); i++) {
                Systems.get(pm.base() + profiled[i % 3], alice);
            }
        } finally {
            pm.stop();
        }
    }

    /** The 7-day and the 1-hour chart, jobmon's against VictoriaMetrics', printed on one line after {@code heading}. */
    private static void charts(String heading, String versus, Systems.Proc pm, Systems.Proc vm, String jmWeek,
            String jmHour, String promWeek, String promHour, String alice) throws Exception {
        double[] jw = measured(pm, pm.base() + jmWeek, alice);
        double[] vw = measured(vm, vm.base() + promWeek, null);
        double[] jh = measured(pm, pm.base() + jmHour, alice);
        double[] vh = measured(vm, vm.base() + promHour, null);
        System.out.printf("%s %.1f/%.1f (%.2f)%s%.1f/%.1f (%.2f) (%.2f × / %.2f ×); 1-hour chart jobmon %.1f/%.1f (%.2f)"
                + " vs %.1f/%.1f (%.2f) (%.2f × / %.2f ×); load %s%n", heading, jw[0], jw[1], jw[2], versus, vw[0], vw[1],
                vw[2], jw[0] / vw[0], jw[1] / vw[1], jh[0], jh[1], jh[2], vh[0], vh[1], vh[2], jh[0] / vh[0],
                jh[1] / vh[1], uptime());
    }

    /** p50, p99 ({@link Latency#latency}) and the CPU ms per call of {@code server} over all its calls (warm-up included). */
    static double[] measured(Systems.Proc server, String url, String token) throws Exception {
        double cpu = Systems.cpuSeconds(server.process().pid());
        double[] l = Latency.latency(url, token);
        return new double[] {l[0], l[1],
            (Systems.cpuSeconds(server.process().pid()) - cpu) * 1000 / (Latency.WARM_CALLS + Latency.CALLS)};
    }

    /** Calls slower than this are counted in the in-turns figures. */
    private static final double SLOW_MS = 2.0;

    /** One system's part of {@link Latency#inTurns}: "p50/p99 (share over the slow mark)". */
    private static String turn(double[] t, int which) {
        return String.format("%.1f/%.1f (%.1f %%)", t[2 * which], t[2 * which + 1], 100 * t[4 + which]);
    }

    private static String uptime() {
        return MetricsBenchmark.uptime();
    }
}
