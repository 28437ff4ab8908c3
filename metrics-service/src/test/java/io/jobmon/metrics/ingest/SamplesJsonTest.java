package io.jobmon.metrics.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.MetricSamples;
import io.jobmon.contracts.messaging.Envelopes;
import io.jobmon.metrics.Fixtures;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The intake's own encoding of a samples record is the contract's, byte for byte apart from id and time. */
class SamplesJsonTest {

    @Test
    void aRecordWrittenWithSharedLabelsReadsBackAsTheContractsEvent() throws Exception {
        Map<String, String> labels = Fixtures.labels("gpu", "0", "pod", "p \"quoted\"", "emoji", "😀");
        List<MetricSamples.Sample> samples = List.of(new MetricSamples.Sample("DCGM_FI_DEV_GPU_UTIL", labels, 1000, 97),
                new MetricSamples.Sample("DCGM_FI_DEV_GPU_UTIL", labels, 16000, 0.125),
                new MetricSamples.Sample("up", null, 16000, 1));
        String mine = SamplesJson.encode("/jobmon/metrics-service", "n1", samples);
        String theirs = CloudEvents.encode("/jobmon/metrics-service", MetricSamples.TYPE, "n1", new MetricSamples("n1", samples));
        ObjectNode a = (ObjectNode) CloudEvents.MAPPER.readTree(mine);
        ObjectNode b = (ObjectNode) CloudEvents.MAPPER.readTree(theirs);
        for (ObjectNode o : List.of(a, b)) {
            o.remove("id");
            o.remove("time");
        }
        assertEquals(b, a);
        assertEquals(new MetricSamples("n1", samples), Envelopes.METRIC_SAMPLES.data("n1", mine));
    }
}
