package io.jobmon.metrics.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.jobmon.contracts.events.CloudEvent;
import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.events.Topics;
import io.jobmon.testsupport.EmbeddedKafka;
import io.jobmon.testsupport.EmbeddedPostgresDb;
import io.jobmon.testsupport.ServiceProcess;
import io.jobmon.testsupport.Tokens;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Side by side on this machine: Debian's Prometheus 2.42 (remote-write receiver), VictoriaMetrics and jobmon
 * (remote-write → Kafka → store). Ingest: one remote-write stream of {@code nodes} × 8 GPUs × 30 metrics at 15 s,
 * {@code hours} of history sent as fast as each accepts (jobmon: until its consumer stored every sample); bytes
 * stored per sample. Query: one 8-GPU job (2 pods) with {@code days} of history: its utilisation by pod over the
 * 7 days and over the last hour at full resolution, jobmon's job metrics endpoint against {@code query_range}.
 *
 * <pre>java -cp ... io.jobmon.metrics.bench.MetricsBenchmark [nodes=100] [hours=2] [days=7] [inflight=4]</pre>
 */
public final class MetricsBenchmark {

    static final long H = 3_600_000L;
    static final long D = 24 * H;

    private MetricsBenchmark() {
    }

    static int arg(String[] a, int i, int d) {
        return a.length > i ? Integer.parseInt(a[i]) : d;
    }

    public static void main(String[] args) throws Exception {
        int status = 1;
        try {
            run(args);
            status = 0;
        } catch (Throwable e) {
            e.printStackTrace(); // System.exit below would otherwise hide it
        } finally {
            System.exit(status); // the embedded broker and database stop with the JVM (shutdown hooks)
        }
    }

    static void run(String[] args) throws Exception {
        int nodes = arg(args, 0, 100);
        int hours = arg(args, 1, 2);
        int days = arg(args, 2, 7);
        // requests in flight never hold two time slices of one series (Prometheus refuses out-of-order samples)
        int inflight = Math.min(arg(args, 3, 4), (nodes * 240 + 2499) / 2500);
        System.out.println("load at start: " + uptime());
        String bootstrap = EmbeddedKafka.bootstrapServers();
        EmbeddedPostgresDb.Connection db = EmbeddedPostgresDb.connection();
        int mgmt = Systems.freePort();
        // the samples topic as deployments create it (the chart's 12 partitions), before the service subscribes
        int partitions = Integer.getInteger("bench.partitions", 12);
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            admin.createTopics(List.of(new NewTopic(Topics.METRICS_SAMPLES, partitions, (short) 1))).all().get();
        }
        Systems.Proc prom = Systems.prometheus();
        Systems.Proc vm = Systems.victoria();
        Systems.Proc jobmon = Systems.jobmon(bootstrap, db.url(), db.user(), db.password(), "bench-" + UUID.randomUUID(), mgmt);
        String mgmtBase = "http://127.0.0.1:" + mgmt;
        Systems.Proc gateway = null;
        try {
            Systems.awaitUp(prom.base() + "/-/ready", Duration.ofSeconds(60));
            Systems.awaitUp(vm.base() + "/health", Duration.ofSeconds(60));
            Systems.awaitUp(mgmtBase + "/q/health/ready", Duration.ofSeconds(300));
            gateway = Systems.gateway(jobmon.base(), mgmtBase);
            if (gateway != null) {
                Systems.awaitUp(gateway.base() + "/q/health/live", Duration.ofSeconds(120));
            }
            long postmaster = postmaster(db);
            System.out.printf("jobmon: %s, samples topic: %d partitions, gateway: %s%n",
                    System.getProperty("bench.jar", "target/quarkus-app"), partitions, gateway == null ? "not built" : "started");
            long now = System.currentTimeMillis() / 15_000 * 15_000;
            long queryStart = now - days * D;
            long streamStart = queryStart - (hours + 1) * H;
            Stream ingest = Stream.build(Stream.series("bench-node", "bench-job", nodes), streamStart, hours * 240, 4, 2500);
            Stream query = Stream.build(Stream.series("query-node", "query-job", 1), queryStart, (int) (days * D / 15_000),
                    60, 240);
            System.out.printf("stream: %,d samples in %,d requests (%,d series); query set: %,d samples%n", ingest.samples,
                    ingest.bodies.size(), nodes * 240, query.samples);
            // -Dbench.warmNodes=N: every system first takes the hour before the stream from N other nodes, not
            // measured, so that the figures are of a running service rather than of a JVM compiling its code (ADR
            // 0061); earlier, not the same hours: Prometheus refuses samples over an hour older than its newest
            int warmNodes = Integer.getInteger("bench.warmNodes", 0);
            Stream warm = Stream.build(Stream.series("warm-node", "warm-job", warmNodes), streamStart - H, 240, 4, 2500);
            if (warmNodes > 0) {
                System.out.printf("warm-up, not measured: %,d samples of %d other nodes in the hour before%n", warm.samples,
                        warmNodes);
            }
            sendJob(bootstrap, queryStart);
            String service = Tokens.user("bench").roles("metrics-writer").get();
            List<String[]> rows = new ArrayList<>();
            long self = ProcessHandle.current().pid();
            for (Systems.Proc p : List.of(jobmon, prom, vm)) {
                boolean isJobmon = p == jobmon;
                send(p.base() + "/api/v1/write", isJobmon ? service : null, warm.bodies, inflight,
                        (warmNodes * 240 + 2499) / 2500);
                if (isJobmon) {
                    awaitStored(mgmtBase, warm.samples);
                }
                double before = isJobmon ? stored(mgmtBase) : 0;
                // CPU seconds of each process while this system ingests: less at the mercy of the machine's load
                // than the rate (the benchmark's own JVM holds the Kafka broker and the sending client)
                double cpu0 = Systems.cpuSeconds(p.process().pid());
                double jit0 = isJobmon ? ServiceProcess.compilerCpuSeconds(p.process().pid()) : 0;
                double pg0 = Systems.treeCpuSeconds(postmaster);
                double self0 = Systems.cpuSeconds(self);
                long t0 = System.nanoTime();
                send(p.base() + "/api/v1/write", isJobmon ? service : null, ingest.bodies, inflight,
                        (nodes * 240 + 2499) / 2500);
                double accepted = (System.nanoTime() - t0) / 1e9;
                if (isJobmon) {
                    awaitStored(mgmtBase, before + ingest.samples);
                }
                double done = (System.nanoTime() - t0) / 1e9;
                double cpu = Systems.cpuSeconds(p.process().pid()) - cpu0;
                double jit = isJobmon ? ServiceProcess.compilerCpuSeconds(p.process().pid()) - jit0 : 0;
                double pg = Systems.treeCpuSeconds(postmaster) - pg0;
                double bench = Systems.cpuSeconds(self) - self0;
                rows.add(new String[] {p.name(), String.format("%,.0f", ingest.samples / done),
                        String.format("%.1f s (accepted in %.1f s)", done, accepted)});
                System.out.printf("%s ingest: %,.0f samples/s (%.1f s; requests answered in %.1f s); load %s%n", p.name(),
                        ingest.samples / done, done, accepted, uptime());
                System.out.printf("%s ingest CPU per sample: %.2f µs in the system%s%s, %.2f µs in the benchmark JVM"
                        + " (sender%s)%n", p.name(), cpu * 1e6 / ingest.samples,
                        isJobmon ? String.format(" (of which its JIT compiler threads %.2f)", jit * 1e6 / ingest.samples) : "",
                        isJobmon ? String.format(" + %.2f µs in PostgreSQL", pg * 1e6 / ingest.samples) : "",
                        bench * 1e6 / ingest.samples, isJobmon ? " and Kafka broker" : "");
                // every request of the query set holds all its series: one at a time keeps each series in order
                if (!IngestOnly.ON) {
                    send(p.base() + "/api/v1/write", isJobmon ? service : null, query.bodies, 1, 1);
                }
            }
            if (IngestOnly.ON) {
                IngestOnly.finish(bootstrap, db, mgmtBase, warm.samples + ingest.samples, prom, vm, rows);
                return;
            }
            awaitStored(mgmtBase, warm.samples + ingest.samples + query.samples);
            awaitCompacted(db);
            Systems.get(vm.base() + "/internal/force_flush", null);
            Thread.sleep(2000);
            long total = warm.samples + ingest.samples + query.samples;
            long jobmonBytes = StoreBytes.jobmon(db);
            System.out.println("jobmon tables (bytes per sample, with indexes and TOAST): " + StoreBytes.tables(db, total));
            System.out.printf("bytes per sample: prometheus %.2f (data dir incl. WAL), victoria-metrics %.2f, jobmon %.2f"
                    + " (PostgreSQL tables with indexes and rollups; the store's tables: %.2f)%n",
                    Systems.du(prom.dir()) / (double) total, Systems.du(vm.dir()) / (double) total,
                    jobmonBytes / (double) total, StoreBytes.store(db) / (double) total);
            System.out.println("prometheus data dir (bytes per sample): " + StoreBytes.dir(prom.dir(), total));
            StoreBytes.settled(db, total, prom, vm);
            String alice = Tokens.alice();
            String week = "from=" + Instant.ofEpochMilli(queryStart) + "&to=" + Instant.ofEpochMilli(now);
            String jmWeek = "/api/v1/jobs/query-job/metrics?metric=gpu_util&groupBy=pod&" + week;
            System.out.println("load before the queries: " + uptime());
            long firstCall = System.nanoTime();
            JsonNode chart = CloudEvents.MAPPER.readTree(Systems.get(jobmon.base() + jmWeek, alice));
            double firstWeek = (System.nanoTime() - firstCall) / 1e6;
            long step = chart.get("stepSeconds").asLong();
            System.out.printf("jobmon 7-day chart: %d series × %d points, step %d s from %s%n", chart.get("series").size(),
                    chart.get("series").get(0).get("points").size(), step, chart.get("resolution").asText());
            String sel = "DCGM_FI_DEV_GPU_UTIL{Hostname=\"query-node-000\"}";
            String promWeek = "/api/v1/query_range?query=" + enc("avg by (pod) (avg_over_time(" + sel + "[" + step + "s]))")
                    + "&start=" + queryStart / 1000 + "&end=" + now / 1000 + "&step=" + step;
            long hourFrom = now - H;
            String promHour = "/api/v1/query_range?query=" + enc("avg by (pod) (" + sel + ")") + "&start=" + hourFrom / 1000
                    + "&end=" + now / 1000 + "&step=15";
            String jmHour = jobmon.base() + "/api/v1/jobs/query-job/metrics?metric=gpu_util&groupBy=pod&from="
                    + Instant.ofEpochMilli(hourFrom) + "&to=" + Instant.ofEpochMilli(now);
            String jmHourPath = jmHour.substring(jobmon.base().length());
            // the first call of each chart: nothing of it decoded yet in this process, the code not yet compiled
            System.out.printf("jobmon first calls (ms): 7-day %.1f, 1-hour %.1f%n", firstWeek, Latency.once(jmHour, alice));
            double[] jw = Latency.latency(jobmon.base() + jmWeek, alice);
            double[] pw = Latency.latency(prom.base() + promWeek, null);
            double[] vw = Latency.latency(vm.base() + promWeek, null);
            double[] served = Latency.served(mgmtBase);
            double cpuBefore = Systems.cpuSeconds(jobmon.process().pid());
            double[] jh = Latency.latency(jmHour, alice);
            double cpuPerCall = (Systems.cpuSeconds(jobmon.process().pid()) - cpuBefore) * 1000 / (Latency.WARM_CALLS + Latency.CALLS);
            double[] servedAfter = Latency.served(mgmtBase);
            double[] ph = Latency.latency(prom.base() + promHour, null);
            double[] vh = Latency.latency(vm.base() + promHour, null);
            System.out.printf("7-day chart by pod (p50/p99 ms): jobmon %.1f/%.1f, prometheus %.1f/%.1f, victoria-metrics %.1f/%.1f%n",
                    jw[0], jw[1], pw[0], pw[1], vw[0], vw[1]);
            System.out.printf("1-hour chart at 15 s (p50/p99 ms): jobmon %.1f/%.1f, prometheus %.1f/%.1f, victoria-metrics %.1f/%.1f%n",
                    jh[0], jh[1], ph[0], ph[1], vh[0], vh[1]);
            System.out.printf("jobmon 1-hour chart, in the service: mean %.2f ms from request to response (its"
                    + " http_server_requests timer), %.2f ms of CPU per call (all its threads)%n",
                    (servedAfter[1] - served[1]) * 1000 / (servedAfter[0] - served[0]), cpuPerCall);
            // where a chart's time goes: an authenticated answer without the database (token, routing, JSON), the same
            // chart over one minute (almost no points), and the 1-hour chart when each call finds its job changed
            double[] live = Latency.latency(mgmtBase + "/q/health/live", null); // the management port: no token
            double[] cat = Latency.latency(jobmon.base() + "/api/v1/metrics/catalogue", alice);
            double[] minute = Latency.latency(jobmon.base() + "/api/v1/jobs/query-job/metrics?metric=gpu_util&groupBy=pod&from="
                    + Instant.ofEpochMilli(now - 60_000) + "&to=" + Instant.ofEpochMilli(now), alice);
            System.out.printf("jobmon floors (p50/p99 ms): liveness (no token, no database) %.1f/%.1f, catalogue (token,"
                    + " no database) %.1f/%.1f, 1-minute chart (~4 points) %.1f/%.1f%n", live[0], live[1],
                    cat[0], cat[1], minute[0], minute[1]);
            try (Connection c = jdbc(db)) {
                double[] after = Latency.latency(jmHour, alice, Latency.changed(c));
                System.out.printf("jobmon 1-hour chart after its job and node changed, every call (p50/p99 ms): %.1f/%.1f%n",
                        after[0], after[1]);
            }
            // the 1-hour chart again on each system, now that the 7-day chart's work (its garbage, its compilations) is
            // long over
            double cpuAgain = Systems.cpuSeconds(jobmon.process().pid());
            double[] again = Latency.latency(jmHour, alice);
            double cpuAgainPerCall = (Systems.cpuSeconds(jobmon.process().pid()) - cpuAgain) * 1000 / (Latency.WARM_CALLS + Latency.CALLS);
            double[] promAgain = Latency.latency(prom.base() + promHour, null);
            double[] vmAgain = Latency.latency(vm.base() + promHour, null);
            System.out.printf("1-hour chart again, each system last (p50/p99 ms): jobmon %.1f/%.1f (%.2f ms of CPU per call),"
                    + " prometheus %.1f/%.1f, victoria-metrics %.1f/%.1f%n", again[0], again[1], cpuAgainPerCall, promAgain[0],
                    promAgain[1], vmAgain[0], vmAgain[1]);
            PromMode.run(bootstrap, db, vm, jmWeek, jmHourPath, promWeek, promHour, alice, chart);
            // -Dbench.profileCalls=N: the 1-hour chart N times more, for a profiler attached to the service meanwhile
            for (int i = 0; i < Integer.getInteger("bench.profileCalls", 0); i++) {
                Systems.get(jmHour, alice);
            }
            if (gateway != null) {
                // the gateway's JVM has served nothing yet: as many calls as the service had before it is measured
                for (int i = 0; i < 300; i++) {
                    Systems.get(gateway.base() + (i % 2 == 0 ? jmWeek : jmHourPath), alice);
                }
                double[] gw = Latency.latency(gateway.base() + jmWeek, alice);
                double[] gh = Latency.latency(gateway.base() + jmHourPath, alice);
                System.out.printf("through the gateway (p50/p99 ms): 7-day %.1f/%.1f, 1-hour %.1f/%.1f%n", gw[0], gw[1],
                        gh[0], gh[1]);
            }
            rows.forEach(r -> System.out.println("| " + String.join(" | ", r) + " |"));
            System.out.println("load at end: " + uptime());
        } finally {
            for (Systems.Proc p : List.of(jobmon, prom, vm)) {
                p.stop();
            }
            if (gateway != null) {
                gateway.stop();
            }
        }
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    static String uptime() {
        try {
            return new String(new ProcessBuilder("uptime").start().getInputStream().readAllBytes()).trim();
        } catch (Exception e) {
            return "?";
        }
    }

    /**
     * Sends every body with at most {@code inflight} requests open, a body only once the one {@code apart} before it
     * (the same series' previous time slice) is answered; fails on the first non-2xx.
     */
    static void send(String url, String token, List<byte[]> bodies, int inflight, int apart) throws Exception {
        Semaphore open = new Semaphore(inflight);
        AtomicReference<String> error = new AtomicReference<>();
        List<CompletableFuture<?>> all = new ArrayList<>();
        for (byte[] body : bodies) {
            if (all.size() >= apart) {
                all.get(all.size() - apart).exceptionally(e -> null).join();
            }
            open.acquire();
            if (error.get() != null) {
                throw new IllegalStateException(error.get());
            }
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofMinutes(5))
                    .header("Content-Type", "application/x-protobuf").header("Content-Encoding", "snappy")
                    .header("X-Prometheus-Remote-Write-Version", "0.1.0").POST(HttpRequest.BodyPublishers.ofByteArray(body));
            if (token != null) {
                b.header("Authorization", "Bearer " + token);
            }
            all.add(Systems.HTTP.sendAsync(b.build(), HttpResponse.BodyHandlers.ofString()).whenComplete((r, e) -> {
                if (e != null) {
                    error.compareAndSet(null, e.toString());
                } else if (r.statusCode() / 100 != 2) {
                    error.compareAndSet(null, url + " → " + r.statusCode() + " " + r.body());
                }
                open.release();
            }));
        }
        CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).join();
        if (error.get() != null) {
            throw new IllegalStateException(error.get());
        }
    }

    static double stored(String mgmt) throws Exception {
        return Systems.scrapeValue(Systems.get(mgmt + "/q/metrics", null), "jobmon_metrics_stored_samples_total");
    }

    static void awaitStored(String mgmt, double target) throws Exception {
        while (stored(mgmt) < target) {
            Thread.sleep(200);
        }
    }

    /**
     * The postmaster's pid: the first line of the data directory's {@code postmaster.pid} (the parent of this
     * session's backend, read after the session ended, was sometimes gone: PostgreSQL's CPU then read 0).
     */
    static long postmaster(EmbeddedPostgresDb.Connection db) throws Exception {
        try (Connection c = jdbc(db); Statement s = c.createStatement(); ResultSet r = s.executeQuery("SHOW data_directory")) {
            r.next();
            return Long.parseLong(java.nio.file.Files.readAllLines(java.nio.file.Path.of(r.getString(1), "postmaster.pid"))
                    .get(0).trim());
        } catch (java.io.IOException | RuntimeException e) {
            return Systems.parent(scalar(db, "SELECT pg_backend_pid()"));
        }
    }

    static Connection jdbc(EmbeddedPostgresDb.Connection db) throws Exception {
        Properties p = new Properties();
        p.put("user", db.user());
        p.put("password", db.password());
        return DriverManager.getConnection(db.jdbcUrl(), p);
    }

    static long scalar(EmbeddedPostgresDb.Connection db, String sql) throws Exception {
        try (Connection c = jdbc(db); Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            return r.next() ? r.getLong(1) : 0;
        }
    }

    /** Waits until every window closed by newer samples is compacted into chunks and rollups. */
    static void awaitCompacted(EmbeddedPostgresDb.Connection db) throws Exception {
        long t0 = System.nanoTime();
        while (scalar(db, "SELECT count(*) FROM metrics.head_window w WHERE window_ms + 7500000 <= (SELECT max(max_ms)"
                + " FROM metrics.head_window v WHERE v.node = w.node)") > 0) {
            Thread.sleep(1000);
        }
        System.out.printf("jobmon compaction caught up %.1f s after the last sample was stored%n",
                (System.nanoTime() - t0) / 1e9);
    }

    static void sendJob(String bootstrap, long startMs) {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("key.serializer", StringSerializer.class.getName());
        p.put("value.serializer", StringSerializer.class.getName());
        JobSnapshot s = new JobSnapshot("query-job", "t1", "alice", "project-nlp", "PRIVATE", List.of(), "llama-sft", "c1",
                "r1", "gpu-a100", JobStatus.RUNNING, null, "A100", 8,
                List.of("query-job-000-worker-0", "query-job-000-worker-1"), List.of("query-node-000"), false, false, 0, 0,
                Instant.ofEpochMilli(startMs - 60_000), Instant.ofEpochMilli(startMs), null, 1, false, "team-nlp", null,
                List.of());
        CloudEvent<JobSnapshot> e = new CloudEvent<>(CloudEvent.SPEC_VERSION, UUID.randomUUID().toString(),
                "/jobmon/job-service", JobSnapshot.TYPE, "query-job", Instant.ofEpochMilli(startMs), CloudEvent.JSON, s);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
            producer.send(new ProducerRecord<>(Topics.JOB_CHANGES, "query-job", CloudEvents.encode(e)));
            producer.flush();
        }
    }
}
