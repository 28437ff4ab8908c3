package io.jobmon.metrics.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jobmon.contracts.events.MetricSamples;
import io.jobmon.metrics.Fixtures;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every Xid counted with its code, though dcgm-exporter only shows the last one. */
class XidDetectorTest {

    static MetricSamples.Sample last(long t, int code) {
        return new MetricSamples.Sample(XidDetector.LAST_XID, Fixtures.labels("gpu", "3", "err_code", String.valueOf(code)),
                t, code);
    }

    @Test
    void eachChangeOfTheLastXidIsAnEventAndARepeatedValueIsNot() {
        Map<XidDetector.StateKey, Double> state = new HashMap<>();
        var events = XidDetector.detect("n1", List.of(last(1000, 0), last(2000, 79), last(3000, 79), last(4000, 13),
                last(5000, 79)), state);
        assertEquals(List.of(79, 13, 79), events.stream().map(XidDetector.Event::code).toList());
        assertEquals(2000, events.get(0).tsMs());
        assertEquals(0, XidDetector.detect("n1", List.of(last(6000, 79)), state).size(), "state carries over batches");
    }

    @Test
    void theWindowedXidCountAddsItsIncreases() {
        Map<XidDetector.StateKey, Double> state = new HashMap<>();
        var s = List.of(new MetricSamples.Sample(XidDetector.XID_COUNT, Fixtures.labels("gpu", "0", "xid", "48"), 1000, 2),
                new MetricSamples.Sample(XidDetector.XID_COUNT, Fixtures.labels("gpu", "0", "xid", "48"), 2000, 2),
                new MetricSamples.Sample(XidDetector.XID_COUNT, Fixtures.labels("gpu", "0", "xid", "48"), 3000, 5),
                new MetricSamples.Sample(XidDetector.XID_COUNT, Fixtures.labels("gpu", "0", "xid", "48"), 4000, 0));
        var events = XidDetector.detect("n1", s, state);
        assertEquals(List.of(2, 3), events.stream().map(XidDetector.Event::count).toList());
        assertEquals(48, events.get(0).code());
    }
}
