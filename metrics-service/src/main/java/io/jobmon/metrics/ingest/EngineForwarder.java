package io.jobmon.metrics.ingest;

import io.jobmon.contracts.events.MetricSamples;
import io.jobmon.metrics.config.MetricsConfig;
import io.jobmon.metrics.remotewrite.prompb.Remote;
import io.jobmon.metrics.remotewrite.prompb.Types;
import io.jobmon.metrics.store.PromClient;
import io.jobmon.metrics.store.NewSeriesNotices;
import io.jobmon.metrics.store.PromSelectors;
import io.jobmon.metrics.store.SettledReads;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import org.jboss.logging.Logger;
import org.xerial.snappy.Snappy;

/**
 * {@code jobmon.metrics.storage=prometheus}: sends a batch's samples to the engine by remote-write 1.0 (prompb,
 * snappy) instead of writing head blocks, the record's node as the engine's node label when a series has none. A
 * failed request is retried with backoff; when it still fails the batch fails, and the consumer retries it with its
 * offsets uncommitted, so nothing is lost (ADR 0036). Samples the engine refuses for good (a 400: out of order, out
 * of bounds) are logged and not sent again; any other answer is retried.
 */
@ApplicationScoped
public class EngineForwarder {

    private static final Logger LOG = Logger.getLogger(EngineForwarder.class);

    private final PromClient engine;
    private final String nodeLabel;
    private final int perRequest;
    private final SettledReads settled;

    public EngineForwarder(PromClient engine, MetricsConfig config, SettledReads settled) {
        this.engine = engine;
        this.settled = settled;
        this.nodeLabel = config.prometheus().nodeLabel();
        this.perRequest = Math.max(1, config.prometheus().samplesPerWrite());
    }

    public Uni<Void> forward(List<SampleBatch> records) {
        if (records.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        // encoding and compressing a batch is real work: on a worker thread, never the event loop
        return Uni.createFrom().item(() -> bodies(records, nodeLabel, perRequest))
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
                .chain(bodies -> Multi.createFrom().iterable(bodies).onItem().transformToUni(this::send).merge(2)
                        .collect().last().replaceWithVoid());
    }

    /**
     * The change notices of the records' nodes that had a sample older than the settled line (ADR 0044): what a
     * replica keeps of the engine's answers there is read again. Sent when {@code conn}'s transaction commits, which
     * is after the engine's 2xx.
     */
    public Uni<Void> noticeLate(SqlConnection conn, List<SampleBatch> records) {
        long line = settled.settledLine(System.currentTimeMillis());
        Set<String> late = new TreeSet<>();
        for (SampleBatch r : records) {
            for (MetricSamples.Series s : r.series()) {
                if (r.node() != null && !late.contains(r.node()) && oldest(s.timestampsMs()) < line) {
                    late.add(r.node());
                }
            }
        }
        return SettledReads.noticeLate(conn, late).chain(() -> NewSeriesNotices.notice(conn, records)); // ADR 0057
    }

    private static long oldest(long[] t) {
        long min = Long.MAX_VALUE;
        for (long x : t) {
            min = Math.min(min, x);
        }
        return min;
    }

    private Uni<Void> send(byte[] body) {
        return engine.write(body)
                .onFailure(e -> e instanceof PromClient.EngineException x && x.retry()).retry()
                .withBackOff(Duration.ofMillis(200), Duration.ofSeconds(5)).atMost(4)
                .onFailure(e -> e instanceof PromClient.EngineException x && !x.retry()).recoverWithUni(e -> {
                    LOG.warnf("the engine refused samples, not sent again: %s", e.getMessage());
                    return Uni.createFrom().voidItem();
                });
    }

    /** WriteRequests of at most {@code perRequest} samples (a series is never cut: a longer one alone), snappy-compressed. */
    static List<byte[]> bodies(List<SampleBatch> records, String nodeLabel, int perRequest) {
        List<byte[]> out = new ArrayList<>();
        Remote.WriteRequest.Builder req = Remote.WriteRequest.newBuilder();
        int samples = 0;
        for (SampleBatch r : records) {
            for (MetricSamples.Series s : r.series()) {
                if (s.timestampsMs().length == 0) {
                    continue;
                }
                int n = s.timestampsMs().length;
                if (samples > 0 && samples + n > perRequest) {
                    out.add(compress(req.build()));
                    req = Remote.WriteRequest.newBuilder();
                    samples = 0;
                }
                req.addTimeseries(series(r.node(), s, nodeLabel));
                samples += n;
            }
        }
        if (samples > 0) {
            out.add(compress(req.build()));
        }
        return out;
    }

    static Types.TimeSeries series(String node, MetricSamples.Series s, String nodeLabel) {
        Map<String, String> labels = new TreeMap<>();
        if (s.labels() != null) {
            s.labels().forEach((k, v) -> {
                if (v != null && !v.isEmpty()) {
                    labels.put(k, v);
                }
            });
        }
        labels.put(PromSelectors.NAME, s.name());
        if (node != null && !node.isEmpty()) {
            labels.putIfAbsent(nodeLabel, node);
        }
        Types.TimeSeries.Builder b = Types.TimeSeries.newBuilder();
        labels.forEach((k, v) -> b.addLabels(Types.Label.newBuilder().setName(k).setValue(v)));
        long[] t = s.timestampsMs();
        double[] v = s.values();
        for (int i = 0; i < t.length; i++) {
            b.addSamples(Types.Sample.newBuilder().setTimestamp(t[i]).setValue(v[i]));
        }
        return b.build();
    }

    private static byte[] compress(Remote.WriteRequest req) {
        try {
            return Snappy.compress(req.toByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
