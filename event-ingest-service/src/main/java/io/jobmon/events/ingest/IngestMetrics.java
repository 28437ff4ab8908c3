package io.jobmon.events.ingest;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;
import jakarta.enterprise.context.ApplicationScoped;

/** Counters of the ingest path, on /q/metrics as {@code jobmon_ingest_records_total{result=...}}. */
@ApplicationScoped
public class IngestMetrics {

    private final Counter stored;
    private final Counter unchanged;
    private final Counter counted;
    private final Counter unattributed;
    private final Counter expired;
    private final Counter invalid;
    private final Counter replayed;
    private final Counter transitions;
    private final Counter podUpdates;
    private final Timer decode;
    private final Timer transaction;
    private final Timer publish;
    private final DistributionSummary batchSize;

    public IngestMetrics(MeterRegistry registry) {
        stored = records(registry, "stored");
        unchanged = records(registry, "unchanged");
        counted = records(registry, "counted");
        unattributed = records(registry, "unattributed");
        expired = records(registry, "expired");
        invalid = records(registry, "invalid");
        replayed = records(registry, "replayed");
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

    private static Counter records(MeterRegistry registry, String result) {
        return Counter.builder("jobmon.ingest.records").tag("result", result)
                .description("records of jobmon.k8s.raw by what they did").register(registry);
    }

    void batch(IngestService.Result r, int invalidRecords) {
        stored.increment(r.writes().stored());
        unchanged.increment(r.writes().unchanged());
        counted.increment(r.writes().counted());
        unattributed.increment(r.writes().unattributed());
        expired.increment(r.writes().expired());
        replayed.increment(r.replayed());
        invalid.increment(invalidRecords);
        transitions.increment(r.writes().transitions().size() - r.writes().podUpdates());
        podUpdates.increment(r.writes().podUpdates());
    }
}
