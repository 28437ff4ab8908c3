package io.jobmon.events.ingest;

import io.jobmon.contracts.messaging.Envelopes;
import io.jobmon.contracts.events.InvalidRecordException;
import io.jobmon.contracts.events.K8sRawObject;
import io.jobmon.events.k8s.EventParser;
import io.jobmon.events.k8s.PodParser;
import io.jobmon.events.k8s.PodView;
import java.time.Instant;

/** Turns a record value of {@code jobmon.k8s.raw} into a {@link RawRecord}, or says why it is invalid. */
public final class RecordDecoder {

    private RecordDecoder() {
    }

    /**
     * @return the record, or null when it is valid but carries nothing to store (an Event's expiry: events are
     *         kept past Kubernetes' TTL, so their deletion is ignored)
     * @throws InvalidRecordException with the reason the DLQ records
     */
    public static RawRecord decode(String key, String value, int partition, long offset, Instant kafkaTime) {
        K8sRawObject raw = Envelopes.K8S_RAW.data(key, value);
        boolean deleted = "DELETED".equals(raw.watchType());
        if ("Pod".equals(raw.kind())) {
            PodView pod = PodParser.parse(raw.object(), deleted);
            String jobId = raw.jobId() != null ? raw.jobId() : pod.jobId();
            return new RawRecord(partition, offset, kafkaTime, raw.cluster(), raw.region(), jobId, pod, null);
        }
        if (deleted) {
            return null;
        }
        return new RawRecord(partition, offset, kafkaTime, raw.cluster(), raw.region(), raw.jobId(), null,
                EventParser.parse(raw.object()));
    }
}
