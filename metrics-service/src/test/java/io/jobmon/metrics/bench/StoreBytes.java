package io.jobmon.metrics.bench;

import io.jobmon.testsupport.EmbeddedPostgresDb;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;

/** Where the bytes go: jobmon's tables (PostgreSQL, with indexes and TOAST) and the engines' data dirs. */
final class StoreBytes {

    private StoreBytes() {
    }

    /**
     * The same figures once the builtin store settled: every window closed by the wall clock compacted (by the
     * scheduled compaction, 30 s) and the head empty but for the open windows.
     */
    static void settled(EmbeddedPostgresDb.Connection db, long total, Systems.Proc prom, Systems.Proc vm)
            throws Exception {
        long t0 = System.nanoTime();
        long closedBefore = System.currentTimeMillis() - 7_500_000L;
        String open = "SELECT count(*) FROM metrics.head_window WHERE window_ms < " + closedBefore;
        while (MetricsBenchmark.scalar(db, open) > 0 && System.nanoTime() - t0 < 180e9) {
            Thread.sleep(1000);
        }
        System.out.printf("jobmon settled %.1f s later (head windows left: %d): %s%n", (System.nanoTime() - t0) / 1e9,
                MetricsBenchmark.scalar(db, "SELECT count(*) FROM metrics.head_window"), tables(db, total));
        System.out.println("jobmon tables, settled: " + detail(db));
        System.out.printf("bytes per sample, settled: prometheus %.2f (data dir incl. WAL), victoria-metrics %.2f, jobmon"
                + " %.2f (the store's tables: %.2f)%n", Systems.du(prom.dir()) / (double) total,
                Systems.du(vm.dir()) / (double) total, jobmon(db) / (double) total, store(db) / (double) total);
    }

    /** Bytes per sample of each top-level entry of a data dir (Prometheus: wal, chunks_head, blocks). */
    static String dir(Path dir, long samples) throws Exception {
        StringBuilder out = new StringBuilder();
        try (java.util.stream.Stream<Path> entries = Files.list(dir)) {
            for (Path p : entries.sorted().toList()) {
                long b = Files.isDirectory(p) ? Systems.du(p) : Files.size(p);
                if (b * 100 / samples > 0) {
                    out.append(String.format("%s %.2f, ", p.getFileName(), b / (double) samples));
                }
            }
        }
        return out.toString();
    }

    /**
     * The sample store's tables alone (series, label sets, head, chunks, rollups): like for like with an engine's data
     * dir; {@link #jobmon} adds what else the schema holds (GPU holdings, the outbox, job facts, offsets).
     */
    static long store(EmbeddedPostgresDb.Connection db) throws Exception {
        return MetricsBenchmark.scalar(db, "SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c JOIN pg_namespace n"
                + " ON n.oid = c.relnamespace WHERE n.nspname = 'metrics' AND c.relkind = 'r' AND regexp_replace(c.relname,"
                + " '_p[0-9]+$', '') IN ('series', 'series_last', 'label_set', 'head_block', 'head_window', 'chunk',"
                + " 'rollup_1m', 'rollup_1h')");
    }

    static long jobmon(EmbeddedPostgresDb.Connection db) throws Exception {
        return MetricsBenchmark.scalar(db, "SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c JOIN pg_namespace n"
                + " ON n.oid = c.relnamespace WHERE n.nspname = 'metrics' AND c.relkind = 'r'");
    }

    /**
     * Where a table's bytes are (heap, indexes, TOAST in kB; partitions added up) and how it was written (rows live and
     * dead, updates and how many were HOT), for the tables that are not partitioned by time too.
     */
    static String detail(EmbeddedPostgresDb.Connection db) throws Exception {
        StringBuilder out = new StringBuilder();
        try (Connection c = MetricsBenchmark.jdbc(db); Statement s = c.createStatement(); ResultSet r = s.executeQuery(
                "SELECT regexp_replace(c.relname, '_p[0-9]+$', '') AS t, sum(pg_relation_size(c.oid)) / 1024,"
                        + " sum(pg_indexes_size(c.oid)) / 1024, sum(coalesce(pg_total_relation_size(nullif(c.reltoastrelid,"
                        + " 0)), 0)) / 1024, sum(u.n_live_tup), sum(u.n_dead_tup), sum(u.n_tup_upd), sum(u.n_tup_hot_upd)"
                        + " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace LEFT JOIN pg_stat_user_tables u"
                        + " ON u.relid = c.oid WHERE n.nspname = 'metrics' AND c.relkind = 'r' GROUP BY 1"
                        + " HAVING sum(pg_total_relation_size(c.oid)) > 1048576 ORDER BY 1")) {
            while (r.next()) {
                out.append(String.format("%s: heap %,d kB, indexes %,d kB, TOAST %,d kB, rows %,d live %,d dead, updates"
                        + " %,d (HOT %,d); ", r.getString(1), r.getLong(2), r.getLong(3), r.getLong(4), r.getLong(5),
                        r.getLong(6), r.getLong(7), r.getLong(8)));
            }
        }
        return out.toString();
    }

    /** Bytes per sample of each of jobmon's tables (partitions added up under their table's name). */
    static String tables(EmbeddedPostgresDb.Connection db, long samples) throws Exception {
        StringBuilder out = new StringBuilder();
        try (Connection c = MetricsBenchmark.jdbc(db); Statement s = c.createStatement(); ResultSet r = s.executeQuery(
                "SELECT regexp_replace(c.relname, '_p[0-9]+$', '') AS t, sum(pg_total_relation_size(c.oid)) AS b"
                        + " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'metrics'"
                        + " AND c.relkind = 'r' GROUP BY 1 ORDER BY 2 DESC")) {
            while (r.next()) {
                if (r.getLong(2) * 100 / samples > 0) {
                    out.append(String.format("%s %.2f, ", r.getString(1), r.getLong(2) / (double) samples));
                }
            }
        }
        return out.toString();
    }
}
