package io.jobmon.jobs.bench;

import com.sun.net.httpserver.HttpServer;
import io.jobmon.testsupport.EmbeddedKafka;
import io.jobmon.testsupport.EmbeddedPostgresDb;
import io.jobmon.testsupport.Tokens;
import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The job-list benchmark (a program, not a test): measures the list, detail and pods endpoints over HTTP through the
 * packaged service, at 1,000,000 and at 10,000 jobs in the same run (two tenants of one database), and prints
 * p50/p99 per query. How to run it: job-service/README.md, "Benchmark".
 *
 * <p>It starts a real PostgreSQL (embedded, or {@code JOBMON_TEST_DB_URL}) and Kafka (embedded, or
 * {@code JOBMON_TEST_KAFKA_BOOTSTRAP}), serves a tiny OIDC issuer (discovery + JWKS of the test key that
 * {@link Tokens} signs with), starts {@code java -jar job-service/target/quarkus-app/quarkus-run.jar} against them,
 * seeds with SQL, and measures with one sequential client (latency, not throughput).
 */
public final class ListBenchmark {

    static final String BIG = "bench1m";
    static final String SMALL = "bench10k";
    static final int PORT = Integer.getInteger("bench.port", 18081);
    static final int WARMUP = Integer.getInteger("bench.warmup", 100);
    static final int SAMPLES = Integer.getInteger("bench.samples", 400);
    static final int BIG_JOBS = Integer.getInteger("bench.jobs", 1_000_000);
    static final int DEEP = Integer.getInteger("bench.deep", 10);
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private ListBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        EmbeddedPostgresDb.Connection db = EmbeddedPostgresDb.connection();
        String kafka = EmbeddedKafka.bootstrapServers();
        HttpServer oidc = BenchIssuer.start();
        String issuerUrl = "http://127.0.0.1:" + oidc.getAddress().getPort();
        Process service = startService(db, kafka, issuerUrl);
        try {
            awaitReady();
            long t0 = System.nanoTime();
            System.out.println("seeding (SQL) ...");
            BenchSeed.seed(db.jdbcUrl(), db.user(), db.password(), SMALL, 10_000);
            BenchSeed.seed(db.jdbcUrl(), db.user(), db.password(), BIG, BIG_JOBS);
            BenchSeed.seedPods(db.jdbcUrl(), db.user(), db.password(), BIG + "-1", 2_000);
            BenchSeed.seedPods(db.jdbcUrl(), db.user(), db.password(), BIG + "-2", 2);
            System.out.printf("seeded in %d s%n", (System.nanoTime() - t0) / 1_000_000_000L);
            List<String[]> rows = new ArrayList<>();
            // The floor: what any request costs on this machine right now (no database, no token check).
            rows.add(row("-", "noise floor: GET /api/v1/no-such-path (404)", i -> get("/api/v1/no-such-path", null)));
            for (String tenant : List.of(SMALL, BIG)) {
                rows.addAll(measureLists(tenant));
            }
            rows.addAll(measureDetail());
            print(rows);
        } finally {
            service.destroy();
            oidc.stop(0);
        }
        // The embedded broker's threads would keep the JVM alive; shutdown hooks stop it and PostgreSQL.
        System.exit(0);
    }

    static List<String[]> measureLists(String tenant) throws Exception {
        String size = tenant.equals(BIG) ? String.format("%,d", BIG_JOBS) : "10,000";
        String admin = Tokens.user("admin-" + tenant).tenant(tenant).roles("admin", "user").get();
        IntFunction<String> user = i -> Tokens.user(String.format("u%04d", (i * 37) % 1000)).tenant(tenant)
                .groups(String.format("p%02d", (i * 37) % 1000 % 50)).get();
        String[] tokens = new String[50];
        for (int i = 0; i < tokens.length; i++) {
            tokens[i] = user.apply(i);
        }
        Map<String, String> queries = new java.util.LinkedHashMap<>();
        queries.put("mine, status=FAILED", "status=FAILED");
        queries.put("shared", "scope=shared");
        queries.put("all (admin)", "scope=all");
        queries.put("mine, tag=t01 AND tag=t02", "tag=t01&tag=t02");
        queries.put("mine, name~llama", "name=llama");
        queries.put("all (admin), status=RUNNING", "scope=all&status=RUNNING");
        queries.put("all (admin), name~llama", "scope=all&name=llama");
        List<String[]> out = new ArrayList<>();
        for (var q : queries.entrySet()) {
            boolean asAdmin = q.getValue().contains("scope=all");
            IntFunction<String> who = i -> asAdmin ? admin : tokens[i % tokens.length];
            out.add(row(size, q.getKey() + ", first page", i -> get("/api/v1/jobs?" + q.getValue(), who.apply(i))));
            String[] deep = new String[tokens.length];
            int depth = 0;
            for (int t = 0; t < (asAdmin ? 1 : tokens.length); t++) {
                String cursor = null;
                int d = 0;
                for (; d < DEEP; d++) {
                    String next = nextCursor(get("/api/v1/jobs?" + q.getValue()
                            + (cursor == null ? "" : "&cursor=" + cursor), who.apply(t)));
                    if (next == null) {
                        break;
                    }
                    cursor = next;
                }
                deep[t] = cursor;
                depth = Math.max(depth, d);
            }
            String[] cursors = Arrays.stream(deep).filter(c -> c != null).toArray(String[]::new);
            if (cursors.length == 0) {
                out.add(new String[] {size, q.getKey() + ", deep page", "n/a (one page)", ""});
                continue;
            }
            int n = cursors.length;
            out.add(row(size, q.getKey() + ", page " + (depth + 1), i -> get("/api/v1/jobs?" + q.getValue()
                    + "&cursor=" + cursors[i % n], asAdmin ? admin : tokens[indexOf(deep, cursors[i % n])])));
        }
        return out;
    }

    static List<String[]> measureDetail() throws Exception {
        String owner = Tokens.user("admin-" + BIG).tenant(BIG).roles("admin", "user").get();
        List<String[]> out = new ArrayList<>();
        for (String[] job : new String[][] {{BIG + "-2", "2-pod"}, {BIG + "-1", "2,000-pod"}}) {
            out.add(row("job", "detail of a " + job[1] + " job", i -> get("/api/v1/jobs/" + job[0], owner)));
            out.add(row("job", "pods of a " + job[1] + " job (first page)",
                    i -> get("/api/v1/jobs/" + job[0] + "/pods", owner)));
        }
        return out;
    }

    interface Call {
        String run(int i) throws Exception;
    }

    static String[] row(String size, String name, Call call) throws Exception {
        for (int i = 0; i < WARMUP; i++) {
            call.run(i);
        }
        long[] nanos = new long[SAMPLES];
        for (int i = 0; i < SAMPLES; i++) {
            long t = System.nanoTime();
            call.run(i);
            nanos[i] = System.nanoTime() - t;
        }
        Arrays.sort(nanos);
        String p50 = ms(nanos[SAMPLES / 2]);
        String p99 = ms(nanos[(int) Math.ceil(SAMPLES * 0.99) - 1]);
        System.out.printf("%-10s %-48s p50 %8s  p99 %8s%n", size, name, p50, p99);
        return new String[] {size, name, p50, p99};
    }

    static String get(String path, String token) throws Exception {
        HttpRequest.Builder req = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + PORT + path)).GET();
        if (token != null) {
            req.header("Authorization", "Bearer " + token);
        }
        HttpResponse<String> r = HTTP.send(req.build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException(path + " -> " + r.statusCode() + " " + r.body());
        }
        return r.body();
    }

    static final Pattern NEXT = Pattern.compile("\"nextCursor\":\"([^\"]+)\"");

    static String nextCursor(String body) {
        Matcher m = NEXT.matcher(body);
        return m.find() ? m.group(1) : null;
    }

    static int indexOf(String[] values, String v) {
        for (int i = 0; i < values.length; i++) {
            if (v.equals(values[i])) {
                return i;
            }
        }
        return 0;
    }

    static String ms(long nanos) {
        return String.format("%.1f ms", nanos / 1_000_000.0);
    }

    static void print(List<String[]> rows) {
        System.out.println();
        System.out.println("| data | query | p50 | p99 |");
        System.out.println("|---|---|---|---|");
        rows.forEach(r -> System.out.printf("| %s | %s | %s | %s |%n", (Object[]) r));
    }

    static Process startService(EmbeddedPostgresDb.Connection db, String kafka, String issuer) throws Exception {
        File jar = new File(System.getProperty("bench.jar", "job-service/target/quarkus-app/quarkus-run.jar"));
        if (!jar.isFile()) {
            throw new IllegalStateException(jar + " not found: run mvn -pl job-service package -DskipTests first");
        }
        // The seeded STOPPING jobs must not be swept to STOPPED while we measure: a long stop grace.
        ProcessBuilder pb = new ProcessBuilder("java", "-Xmx512m", "-Dquarkus.http.port=" + PORT,
                "-Dquarkus.management.port=" + (PORT + 1000),
                "-Dquarkus.log.level=WARN", "-Djobmon.jobs.stop-grace=P3650D", "-jar", jar.getPath());
        pb.environment().put("JOBMON_DB_URL", db.url());
        pb.environment().put("JOBMON_DB_USER", db.user());
        pb.environment().put("JOBMON_DB_PASSWORD", db.password());
        pb.environment().put("JOBMON_KAFKA_BOOTSTRAP", kafka);
        pb.environment().put("JOBMON_OIDC_URL", issuer);
        pb.redirectErrorStream(true).redirectOutput(new File(System.getProperty("java.io.tmpdir"), "bench-job-service.log"));
        return pb.start();
    }

    static void awaitReady() throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (System.nanoTime() < deadline) {
            try {
                HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + (PORT + 1000)
                        + "/q/health/ready")).build(), HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    return;
                }
            } catch (java.io.IOException e) {
                // not up yet
            }
            Thread.sleep(500);
        }
        throw new IllegalStateException("job-service did not become ready; see bench-job-service.log in java.io.tmpdir");
    }
}
