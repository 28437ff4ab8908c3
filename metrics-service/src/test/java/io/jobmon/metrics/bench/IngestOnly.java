package io.jobmon.metrics.bench;

import io.jobmon.contracts.events.Topics;
import io.jobmon.testsupport.EmbeddedPostgresDb;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;

/**
 * {@code -Dbench.ingestOnly=true}: {@link MetricsBenchmark}'s ingest stream only, then bytes per sample of it, the GPU
 * holdings and outbox rows it made and the samples topic's bytes on the broker; no query set, no charts.
 */
final class IngestOnly {

    static final boolean ON = Boolean.getBoolean("bench.ingestOnly");

    private IngestOnly() {
    }

    static void finish(String bootstrap, EmbeddedPostgresDb.Connection db, String mgmtBase, long samples,
            Systems.Proc prom, Systems.Proc vm, List<String[]> rows) throws Exception {
        MetricsBenchmark.awaitStored(mgmtBase, samples);
        MetricsBenchmark.awaitCompacted(db);
        Systems.get(vm.base() + "/internal/force_flush", null);
        Thread.sleep(2000);
        System.out.println("jobmon tables (bytes per sample, with indexes and TOAST): " + StoreBytes.tables(db, samples));
        System.out.printf("bytes per sample (the stream only): prometheus %.2f (data dir incl. WAL), victoria-metrics %.2f,"
                + " jobmon %.2f (the store's tables: %.2f)%n", Systems.du(prom.dir()) / (double) samples,
                Systems.du(vm.dir()) / (double) samples, StoreBytes.jobmon(db) / (double) samples,
                StoreBytes.store(db) / (double) samples);
        System.out.printf("GPU holdings: %d rows for %d GPUs; outbox rows inserted %d, updated %d, deleted %d%n",
                MetricsBenchmark.scalar(db, "SELECT count(*) FROM metrics.gpu_holding"),
                MetricsBenchmark.scalar(db, "SELECT count(DISTINCT (node, gpu)) FROM metrics.gpu_holding"),
                outbox(db, "n_tup_ins"), outbox(db, "n_tup_upd"), outbox(db, "n_tup_del"));
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            long onBroker = admin.describeLogDirs(List.of(1)).allDescriptions().get().values().stream()
                    .flatMap(d -> d.values().stream()).flatMap(d -> d.replicaInfos().entrySet().stream())
                    .filter(e -> e.getKey().topic().equals(Topics.METRICS_SAMPLES))
                    .mapToLong(e -> e.getValue().size()).sum();
            System.out.printf("samples topic on the broker: %.2f bytes per sample%n", onBroker / (double) samples);
        }
        rows.forEach(r -> System.out.println("| " + String.join(" | ", r) + " |"));
        System.out.println("load at end: " + MetricsBenchmark.uptime());
    }

    private static long outbox(EmbeddedPostgresDb.Connection db, String column) throws Exception {
        return MetricsBenchmark.scalar(db, "SELECT " + column
                + " FROM pg_stat_user_tables WHERE schemaname = 'metrics' AND relname = 'outbox'");
    }
}
