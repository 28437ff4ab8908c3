package io.jobmon.events.ingest;

import io.jobmon.contracts.metrics.TaggedCounters;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;
import jakarta.enterprise.context.ApplicationScoped;

/** Counters of the ingest path, on /q/metrics as {@code jobmon_ingest_records_total{result=...}}. */
@ApplicationScoped
public class IngestMetrics {

    private final TaggedCounters records;
    private final Counter transitions;
    private final Counter podUpdates;
    private final Timer decode;
    private final Timer transaction;
    private final Timer publish;
    private final DistributionSummary batchSize;

    public IngestMetrics(MeterRegistry registry) {
        records = new TaggedCounters(registry, "jobmon.ingest.records", "result",
                "records of jobmon.k8s.raw by what they did", "stored", "unchanged", "counted", "unattributed", "expired",
                "invalid", "replayed");
        transitions = Counter.builder("jobmon.ingest.transitions").description("status transitions published")
                .register(registry);
        podUpdates = Counter.builder("jobmon.ingest.pod.updates")
                .description("pods-only records published: pods that changed without a status transition")
                .register(registry);
        decode = stage(registry, "decode");
        transaction = stage(registry, "transaction");
        publish = stage(registry, "publish");
        batchSize = DistributionSummary.builder("jobmon.ingest.batch.records").description("records per polled batch")
                .register(registry);
    }

    private static Timer stage(MeterRegistry registry, String stage) {
        return Timer.builder("jobmon.ingest.batch.duration").tag("stage", stage)
                .description("time a batch spends in each stage: decoding, the store transaction, publishing its transitions")
                .register(registry);
    }

    void decoded(long nanos) {
        decode.record(nanos, TimeUnit.NANOSECONDS);
    }

    void transaction(long nanos, int records) {
        transaction.record(nanos, TimeUnit.NANOSECONDS);
        batchSize.record(records);
    }

    void published(long nanos) {
        publish.record(nanos, TimeUnit.NANOSECONDS);
    }

    void batch(IngestService.Result r, int invalidRecords) {
        records.increment("stored", r.writes().stored());
        records.increment("unchanged", r.writes().unchanged());
        records.increment("counted", r.writes().counted());
        records.increment("unattributed", r.writes().unattributed());
        records.increment("expired", r.writes().expired());
        records.increment("replayed", r.replayed());
        records.increment("invalid", invalidRecords);
        transitions.increment(r.writes().transitions().size() - r.writes().podUpdates());
        podUpdates.increment(r.writes().podUpdates());
    }
}
