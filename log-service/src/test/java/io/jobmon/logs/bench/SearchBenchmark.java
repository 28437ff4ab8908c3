package io.jobmon.logs.bench;

import io.jobmon.logs.chunk.ChunkCodec;
import io.jobmon.logs.chunk.TrigramFilter;
import io.jobmon.logs.chunk.ChunkRef;
import io.jobmon.logs.chunk.ChunkStore;
import io.jobmon.logs.chunk.PgChunkStore;
import io.jobmon.logs.chunk.S3ChunkStore;
import io.jobmon.logs.chunk.StoredLine;
import io.jobmon.logs.query.ChunkMeta;
import io.jobmon.logs.query.ChunkQueries;
import io.jobmon.logs.query.Counter;
import io.jobmon.logs.query.LineMatcher;
import io.jobmon.logs.query.LogReader;
import io.jobmon.logs.query.Scope;
import io.jobmon.logs.s3.S3TestResource;
import io.jobmon.testsupport.EmbeddedPostgresDb;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.PoolOptions;
import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.flywaydb.core.Flyway;

/**
 * Search and tail of log-service's store against grep on the same text (a program, not a test; command in the
 * README). Arguments: {@code bigMB} (1024) and {@code smallMB} (10) of raw log text of two jobs, and {@code s3} to
 * measure the same again with the bodies in an S3 store (s3proxy in this JVM, filesystem backend), side by side.
 *
 * <p>The jobs' chunks are written as compaction writes them (1 MB of one pod's lines, zstd 9, trigram filter), straight
 * into a fresh database (Kafka intake is measured by {@link IngestBenchmark}); the same lines go to a file. Then, warm,
 * in this JVM: counting a frequent and a rare keyword over the big job with the query engine ({@code /logs/count}:
 * index read with the filters tested in PostgreSQL, bodies fetched, decompressed and searched on 2 threads) against
 * {@code grep -F -c} on the file; and the last 1,000 lines ({@code tail=1000}) of the big and the small job, 200 times
 * each (p50, p99). HTTP and JSON are not included.
 */
public final class SearchBenchmark {

    public static void main(String[] args) throws Exception {
        int bigMb = args.length > 0 ? Integer.parseInt(args[0]) : 1024;
        int smallMb = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        boolean s3 = args.length > 2 && args[2].equals("s3");
        Bench.quietLogging();
        String run = Long.toString(System.currentTimeMillis(), 36);
        EmbeddedPostgresDb.Connection pg = EmbeddedPostgresDb.connection();
        String url = Bench.freshDatabase(pg, "search_" + run);
        Flyway.configure().dataSource("jdbc:" + url, pg.user(), pg.password()).schemas("logs").createSchemas(true)
                .locations("classpath:db/migration").load().migrate();
        Path file = Files.createTempFile("search-big-", ".log");
        try (Connection c = Bench.db(url, pg.user(), pg.password())) {
            c.createStatement().execute("SET search_path = logs");
            c.createStatement().execute("CREATE TABLE chunk_p20260713 PARTITION OF chunk FOR VALUES FROM ('2026-07-13') TO ('2026-07-14')");
            c.createStatement().execute("CREATE TABLE chunk_body_p20260713 PARTITION OF chunk_body FOR VALUES FROM ('2026-07-13') TO ('2026-07-14')");
            c.createStatement().execute("ALTER TABLE chunk_body_p20260713 ALTER COLUMN body SET STORAGE EXTERNAL");
            long t0 = System.nanoTime();
            long[] big = write(c, "big", bigMb * 1_048_576L, file);
            write(c, "small", smallMb * 1_048_576L, null);
            c.createStatement().execute("VACUUM ANALYZE");
            System.out.printf("wrote %,d lines (%,d MB) of job big in %,d chunks, and job small, in %.0f s%n", big[0],
                    bigMb, big[1], (System.nanoTime() - t0) / 1e9);
        }
        Vertx vertx = Vertx.vertx();
        PgConnectOptions options = PgConnectOptions.fromUri(url).setUser(pg.user()).setPassword(pg.password())
                .setProperties(Map.of("search_path", "logs", "plan_cache_mode", "force_custom_plan"))
                .setCachePreparedStatements(true); // as the service's application.properties has it
        Pool pool = Pool.newInstance(PgBuilder.pool().with(new PoolOptions().setMaxSize(4)).connectingTo(options)
                .using(vertx.getDelegate()).build());
        ExecutorService threads = Executors.newFixedThreadPool(2);
        Scope bigScope = new Scope("big", true, false, null, null, List.of(), Long.MIN_VALUE, Long.MAX_VALUE);
        Scope smallScope = new Scope("small", true, false, null, null, List.of(), Long.MIN_VALUE, Long.MAX_VALUE);
        Scope podScope = new Scope("big", true, false, kept(url, pg), null, List.of(), Long.MIN_VALUE, Long.MAX_VALUE);
        Map<String, ChunkStore> stores = new LinkedHashMap<>();
        stores.put("postgres", new PgChunkStore(pool));
        if (s3) {
            String endpoint = S3TestResource.endpoint(Files.createTempDirectory("search-s3-"));
            S3ChunkStore store = new S3ChunkStore(pool, S3TestResource.settings(endpoint, 0));
            copyBodies(url, pg, store);
            stores.put("s3 (no cache)", store);
            stores.put("s3", new S3ChunkStore(pool, S3TestResource.settings(endpoint))); // s3.cache-bytes 64 MiB
        }
        grep(Workload.FREQUENT, file); // warm the page cache
        Map<String, double[]> figures = new LinkedHashMap<>();
        for (Map.Entry<String, ChunkStore> store : stores.entrySet()) {
            System.out.printf("-- bodies in %s%n", store.getKey());
            ChunkQueries queries = new ChunkQueries(pool, store.getValue());
            double[] f = new double[5];
            f[0] = search(new Counter(queries, threads), bigScope, file);
            stages(queries, threads, bigScope); // warm: after the searches
            LogReader reader = new LogReader(queries, threads);
            for (Scope sc : new Scope[] {bigScope, podScope, smallScope}) {
                long gets = store.getValue() instanceof S3ChunkStore s ? s.gets() : 0;
                double[] p = tail(reader, sc);
                if (store.getValue() instanceof S3ChunkStore s) {
                    System.out.printf("  GETs per tail: %.1f%n", (s.gets() - gets) / 220.0);
                }
                if (sc != smallScope) {
                    f[sc == bigScope ? 1 : 3] = p[0];
                    f[sc == bigScope ? 2 : 4] = p[1];
                }
            }
            figures.put(store.getKey(), f);
        }
        if (s3) {
            Alternating.searches(stores, pool, threads, bigScope, 9);
            double[] p = figures.get("postgres");
            for (String name : new String[] {"s3 (no cache)", "s3"}) {
                double[] o = figures.get(name);
                System.out.printf("%s / postgres: frequent-keyword search %.3f / %.3f s = %.2f x; tail=1000 of the big job"
                        + " p50 %.1f / %.1f ms = %.2f x (p99 %.1f / %.1f ms)%n", name, o[0], p[0], o[0] / p[0], o[1], p[1],
                        o[1] / p[1], o[2], p[2]);
                System.out.printf("%s / postgres: tail=1000 of pod %s p50 %.1f / %.1f ms = %.2f x (p99 %.1f / %.1f ms)%n", name,
                        podScope.pod(), o[3], p[3], o[3] / p[3], o[4], p[4]);
            }
        }
        threads.shutdown();
        Files.deleteIfExists(file);
        System.exit(0);
    }

    /**
     * Searches before the measured ones: a store's code path (for s3proxy: the SDK's client, Jetty, the signature check)
     * is compiled by the JIT during its first searches, which at 256 MB were 2–4 × the later ones (2026-12-05).
     */
    private static final int WARM_SEARCHES = Integer.getInteger("bench.warmSearches", 3);

    /**
     * Counts the frequent and the rare keyword 5 times each after {@link #WARM_SEARCHES}, against grep; @return the
     * frequent one's median (s).
     */
    private static double search(Counter counter, Scope scope, Path file) throws Exception {
        double frequent = 0;
        for (String keyword : new String[] {Workload.FREQUENT, Workload.RARE}) {
            double[] ours = new double[5];
            Counter.Count count = null;
            for (int i = -WARM_SEARCHES; i < ours.length; i++) {
                LineMatcher m = LineMatcher.of(keyword, false, null, 512, 600_000);
                long s = System.nanoTime();
                count = counter.count(scope, Long.MIN_VALUE, Long.MAX_VALUE, m);
                if (i >= 0) {
                    ours[i] = (System.nanoTime() - s) / 1e9;
                }
            }
            System.out.printf("search '%s' runs (s): %s%n", keyword, Arrays.toString(ours));
            double[] grep = new double[5];
            long grepCount = 0;
            for (int i = 0; i < grep.length; i++) {
                long s = System.nanoTime();
                grepCount = grep(keyword, file);
                grep[i] = (System.nanoTime() - s) / 1e9;
            }
            Arrays.sort(ours);
            Arrays.sort(grep);
            System.out.printf("search '%s': %,d lines in %.3f s, %d chunks read (grep -F -c: %,d lines in %.3f s) = %.2f x grep"
                    + " (medians of 5)%n", keyword, count.lines(), ours[2], count.chunksRead(), grepCount, grep[2], ours[2] / grep[2]);
            if (keyword.equals(Workload.FREQUENT)) {
                frequent = ours[2];
            }
        }
        return frequent;
    }

    /** tail=1000 of the job 200 times after 20 to warm; @return p50, p99 (ms). */
    private static double[] tail(LogReader reader, Scope s) {
        long[] times = new long[200];
        for (int i = -20; i < times.length; i++) {
            long t = System.nanoTime();
            List<LogReader.Found> lines = reader.read(new LogReader.Request(s, Long.MIN_VALUE, Long.MAX_VALUE, null, false,
                    1000, null, null));
            if (lines.size() != 1001) {
                throw new IllegalStateException("tail read " + lines.size());
            }
            if (i >= 0) {
                times[i] = System.nanoTime() - t;
            }
        }
        Arrays.sort(times);
        System.out.printf("tail=1000 of job %s%s: p50 %.1f ms, p99 %.1f ms, max %.1f ms%n", s.jobId(), s.pod() == null ? "" : " pod " + s.pod(),
                times[100] / 1e6, times[197] / 1e6, times[199] / 1e6);
        return new double[] {times[100] / 1e6, times[197] / 1e6};
    }

    /**
     * What the big job's index rows keep (ADRs 0047, 0052): the kept values' bytes and lines per stream; @return the pod
     * whose newest chunk holds the most lines (a pod's tail reads its kept segments alone when they hold 1,001).
     */
    private static String kept(String url, EmbeddedPostgresDb.Connection pg) throws Exception {
        try (Connection c = Bench.db(url, pg.user(), pg.password());
                var r = c.createStatement().executeQuery("SELECT min(octet_length(newest)), avg(octet_length(newest)),"
                        + " max(octet_length(newest)), avg(raw_bytes::float8 / lines), count(*),"
                        + " (array_agg(pod ORDER BY lines DESC))[1], max(lines), min(lines)"
                        + " FROM logs.chunk WHERE job_id = 'big' AND newest IS NOT NULL")) {
            r.next();
            System.out.printf("kept by the %d streams' newest chunks: %,d / %,.0f / %,d bytes (min / avg / max), lines of"
                    + " %.0f bytes; their chunks hold %d..%d lines%n", r.getInt(5), r.getLong(1), r.getDouble(2), r.getLong(3),
                    r.getDouble(4), r.getInt(8), r.getInt(7));
            return r.getString(6);
        }
    }

    /** Puts every body of chunk_body into the S3 store under its chunk's key, 256 at a time. */
    private static void copyBodies(String url, EmbeddedPostgresDb.Connection pg, S3ChunkStore store) throws Exception {
        long t0 = System.nanoTime();
        long n = 0;
        try (Connection c = Bench.db(url, pg.user(), pg.password())) {
            c.setAutoCommit(false);
            try (PreparedStatement q = c.prepareStatement("SELECT day, id, body FROM logs.chunk_body")) {
                q.setFetchSize(256);
                List<ChunkStore.Body> batch = new ArrayList<>();
                try (var r = q.executeQuery()) {
                    while (r.next()) {
                        batch.add(new ChunkStore.Body(new ChunkRef(r.getDate(1).toLocalDate(), r.getLong(2)), r.getBytes(3)));
                        if (batch.size() == 256) {
                            store.put(null, batch).await().indefinitely();
                            n += batch.size();
                            batch = new ArrayList<>();
                        }
                    }
                }
                if (!batch.isEmpty()) {
                    store.put(null, batch).await().indefinitely();
                    n += batch.size();
                }
            }
        }
        System.out.printf("copied %,d bodies to s3proxy (filesystem backend) in %.0f s%n", n, (System.nanoTime() - t0) / 1e9);
    }

    /**
     * Where a frequent keyword's count spends its time: the index alone, the bodies fetched alone (16 a query, one at a
     * time), and the bodies decoded and searched from memory on the 2 threads (medians of 3).
     */
    private static void stages(ChunkQueries queries, ExecutorService threads, Scope scope) throws Exception {
        double[] index = new double[3];
        double[] fetch = new double[3];
        double[] decode = new double[3];
        long bytes = 0;
        List<byte[]> bodies = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            long s = System.nanoTime();
            List<ChunkMeta> metas = new ArrayList<>();
            long afterKey = Long.MIN_VALUE;
            long afterId = Long.MIN_VALUE;
            while (true) {
                List<ChunkMeta> page = queries.metas(scope, Long.MIN_VALUE, Long.MAX_VALUE,
                        TrigramFilter.hashes(Workload.FREQUENT, false), true, afterKey, afterId, 500);
                metas.addAll(page);
                if (page.size() < 500) {
                    break;
                }
                afterKey = page.get(page.size() - 1).minTime();
                afterId = page.get(page.size() - 1).ref().id();
            }
            index[r] = (System.nanoTime() - s) / 1e9;
            s = System.nanoTime();
            bodies.clear();
            bytes = 0;
            for (int i = 0; i < metas.size(); i += 16) {
                for (byte[] b : queries.bodiesAsync(metas.subList(i, Math.min(metas.size(), i + 16)).stream()
                        .map(ChunkMeta::ref).toList()).get().values()) {
                    bodies.add(b);
                    bytes += b.length;
                }
            }
            fetch[r] = (System.nanoTime() - s) / 1e9;
            s = System.nanoTime();
            LineMatcher m = LineMatcher.of(Workload.FREQUENT, false, null, 512, 600_000);
            List<java.util.concurrent.Future<Long>> counts = new ArrayList<>();
            for (byte[] b : bodies) {
                counts.add(threads.submit(() -> ChunkCodec.countTexts(b, m::countIn)));
            }
            for (var f : counts) {
                f.get();
            }
            decode[r] = (System.nanoTime() - s) / 1e9;
        }
        Arrays.sort(index);
        Arrays.sort(fetch);
        Arrays.sort(decode);
        System.out.printf("frequent keyword's stages: index %.3f s; %,d bodies (%,d MB) fetched alone %.3f s; decoded and"
                + " searched from memory %.3f s%n", index[1], bodies.size(), bytes >> 20, fetch[1], decode[1]);
    }

    private static long grep(String keyword, Path file) throws Exception {
        Process p = new ProcessBuilder("grep", "-F", "-c", keyword, file.toString()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        p.waitFor();
        return Long.parseLong(out);
    }

    /** Writes a job's chunks (16 pods, 1 MB each) and, if given, its text to a file; @return lines, chunks. */
    private static long[] write(Connection c, String job, long rawBytes, Path file) throws Exception {
        int pods = 16;
        Workload[] w = new Workload[pods];
        List<List<StoredLine>> open = new ArrayList<>();
        long[] openBytes = new long[pods];
        for (int p = 0; p < pods; p++) {
            w[p] = new Workload(job.hashCode() + p, p);
            open.add(new ArrayList<>());
        }
        PreparedStatement index = c.prepareStatement("INSERT INTO chunk (id, day, job_id, kind, node, namespace, pod, container,"
                + " kafka_partition, min_offset, max_offset, min_time, max_time, lines, raw_bytes, stored_bytes, level, filter,"
                + " newest) VALUES (nextval('chunk_id_seq'), DATE '2026-07-13', ?, 'u', ?, 'team-nlp', ?, 'trainer', ?, ?, ?, ?,"
                + " ?, ?, ?, ?, 1, ?, ?) RETURNING id");
        // as ChunkIndex in S3 mode: each pod's newest chunk keeps its newest segment (ADR 0047; PostgreSQL mode reads none)
        PreparedStatement older = c.prepareStatement("UPDATE chunk SET newest = NULL WHERE day = DATE '2026-07-13' AND id = ?");
        long[] kept = new long[pods];
        PreparedStatement body = c.prepareStatement("INSERT INTO chunk_body (day, id, body) VALUES (DATE '2026-07-13', ?, ?)");
        OutputStream out = file == null ? OutputStream.nullOutputStream() : new BufferedOutputStream(Files.newOutputStream(file), 1 << 20);
        long written = 0;
        long lines = 0;
        long chunks = 0;
        long time = 1_783_900_800_000_000_000L; // 2026-07-13T00:00:00Z
        while (written < rawBytes) {
            int p = (int) (lines % pods);
            String line = w[p].next();
            byte[] b = line.getBytes(StandardCharsets.UTF_8);
            out.write(b);
            out.write('\n');
            written += b.length;
            open.get(p).add(new StoredLine(time + lines * 1000L, lines, 0, 0, line));
            openBytes[p] += b.length;
            lines++;
            if (openBytes[p] >= 1_048_576 || written >= rawBytes) {
                for (int q = 0; q < pods; q++) {
                    if (open.get(q).isEmpty() || q != p && written < rawBytes) {
                        continue;
                    }
                    ChunkCodec.Encoded e = ChunkCodec.encode(open.get(q), 9, 1 << 17);
                    index.setString(1, job);
                    index.setString(2, "gpu-node-" + q);
                    index.setString(3, job + "-worker-" + q);
                    index.setInt(4, q % 4);
                    index.setLong(5, e.minOffset());
                    index.setLong(6, e.maxOffset());
                    index.setLong(7, e.minTime());
                    index.setLong(8, e.maxTime());
                    index.setInt(9, e.lines());
                    index.setLong(10, e.rawBytes());
                    index.setInt(11, e.body().length);
                    index.setBytes(12, e.filter());
                    index.setBytes(13, ChunkCodec.newestSegment(e));
                    var rs = index.executeQuery();
                    rs.next();
                    if (kept[q] != 0) {
                        older.setLong(1, kept[q]);
                        older.executeUpdate();
                    }
                    kept[q] = rs.getLong(1);
                    body.setLong(1, rs.getLong(1));
                    body.setBytes(2, e.body());
                    body.executeUpdate();
                    open.get(q).clear();
                    openBytes[q] = 0;
                    chunks++;
                }
            }
        }
        out.close();
        return new long[] {lines, chunks};
    }
}
