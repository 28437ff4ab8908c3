package io.jobmon.metrics.remotewrite;

import com.google.protobuf.InvalidProtocolBufferException;
import io.jobmon.contracts.events.MetricSamples;
import io.jobmon.contracts.problem.ApiException;
import io.jobmon.metrics.remotewrite.prompb.Remote;
import io.jobmon.metrics.remotewrite.prompb.Types;
import io.jobmon.metrics.store.SeriesLabels;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.xerial.snappy.Snappy;

/**
 * A Prometheus remote-write 1.0 body (snappy block format around a {@code prometheus.WriteRequest}, prompb of
 * prometheus/prometheus) as series per node. The node is the first of {@code nodeLabels} a series carries
 * ({@code instance} loses its port). NaN samples (staleness markers) and native histograms are skipped.
 */
public final class RemoteWriteDecoder {

    /** The series of a request by node, how many samples they hold and how many were skipped. */
    public record Decoded(Map<String, List<MetricSamples.Series>> byNode, int samples, int skipped) {
    }

    private RemoteWriteDecoder() {
    }

    public static Decoded decode(byte[] body, List<String> nodeLabels) {
        byte[] raw;
        try {
            if (!Snappy.isValidCompressedBuffer(body)) {
                throw ApiException.invalid("body", "metrics.not-snappy");
            }
            raw = Snappy.uncompress(body);
        } catch (IOException e) {
            throw ApiException.invalid("body", "metrics.not-snappy");
        }
        Remote.WriteRequest request;
        try {
            request = Remote.WriteRequest.parseFrom(raw);
        } catch (InvalidProtocolBufferException e) {
            throw ApiException.invalid("body", "metrics.not-write-request", e.getMessage());
        }
        Map<String, List<MetricSamples.Series>> byNode = new HashMap<>();
        int count = 0;
        int skipped = 0;
        for (Types.TimeSeries ts : request.getTimeseriesList()) {
            String name = null;
            Map<String, String> labels = new LinkedHashMap<>(ts.getLabelsCount() * 2);
            for (Types.Label l : ts.getLabelsList()) {
                if (l.getName().equals("__name__")) {
                    name = l.getValue();
                } else if (!l.getValue().isEmpty()) {
                    labels.put(l.getName(), l.getValue());
                }
            }
            skipped += ts.getHistogramsCount();
            if (name == null || name.isEmpty()) {
                skipped += ts.getSamplesCount();
                continue;
            }
            int n = ts.getSamplesCount();
            long[] t = new long[n];
            double[] v = new double[n];
            int m = 0;
            for (int i = 0; i < n; i++) {
                Types.Sample s = ts.getSamples(i);
                if (Double.isNaN(s.getValue())) {
                    skipped++;
                    continue;
                }
                t[m] = s.getTimestamp();
                v[m++] = s.getValue();
            }
            if (m == 0) {
                continue;
            }
            // remote-write senders sort labels by name (the spec asks them to); sorted() only copies when not
            byNode.computeIfAbsent(node(labels, nodeLabels), k -> new ArrayList<>()).add(new MetricSamples.Series(name,
                    SeriesLabels.sorted(labels), m == n ? t : Arrays.copyOf(t, m), m == n ? v : Arrays.copyOf(v, m)));
            count += m;
        }
        return new Decoded(byNode, count, skipped);
    }

    static String node(Map<String, String> labels, List<String> nodeLabels) {
        for (String l : nodeLabels) {
            String v = labels.get(l);
            if (v != null && !v.isEmpty()) {
                if (l.equals("instance")) {
                    int colon = v.lastIndexOf(':');
                    return colon > 0 && v.indexOf(']') < colon ? v.substring(0, colon) : v;
                }
                return v;
            }
        }
        return "unknown";
    }
}
