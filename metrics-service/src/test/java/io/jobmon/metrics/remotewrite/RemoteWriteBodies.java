package io.jobmon.metrics.remotewrite;

import io.jobmon.metrics.remotewrite.prompb.Remote;
import io.jobmon.metrics.remotewrite.prompb.Types;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import org.xerial.snappy.Snappy;

/** Remote-write 1.0 bodies as Prometheus sends them: a prompb WriteRequest, snappy block-compressed. */
public final class RemoteWriteBodies {

    private RemoteWriteBodies() {
    }

    public static Types.TimeSeries series(String name, Map<String, String> labels, long startMs, int count, long stepMs,
            java.util.function.IntToDoubleFunction value) {
        Types.TimeSeries.Builder b = Types.TimeSeries.newBuilder()
                .addLabels(Types.Label.newBuilder().setName("__name__").setValue(name));
        labels.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> b.addLabels(Types.Label.newBuilder().setName(e.getKey()).setValue(e.getValue())));
        for (int i = 0; i < count; i++) {
            b.addSamples(Types.Sample.newBuilder().setTimestamp(startMs + i * stepMs).setValue(value.applyAsDouble(i)));
        }
        return b.build();
    }

    public static byte[] body(Iterable<Types.TimeSeries> series) {
        try {
            return Snappy.compress(Remote.WriteRequest.newBuilder().addAllTimeseries(series).build().toByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
