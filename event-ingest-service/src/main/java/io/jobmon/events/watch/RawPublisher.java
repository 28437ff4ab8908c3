package io.jobmon.events.watch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.K8sRawObject;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.OnOverflow;
import org.jboss.logging.Logger;

/** Publishes Kubernetes objects to {@code jobmon.k8s.raw} as the API returned them, keyed cluster/namespace/pod. */
@ApplicationScoped
public class RawPublisher {

    private static final Logger LOG = Logger.getLogger(RawPublisher.class);
    static final String SOURCE = "/jobmon/event-ingest-service/watcher";

    private final MutinyEmitter<String> emitter;
    private final AtomicLong published = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();

    public RawPublisher(@Channel("k8s-raw-out") @OnOverflow(OnOverflow.Strategy.UNBOUNDED_BUFFER)
            MutinyEmitter<String> emitter) {
        this.emitter = emitter;
    }

    /**
     * @param object the object as the API returned it (kind and apiVersion filled in when a list left them out)
     * @param podName the pod the record is about (for an event: its involved object), the last part of the key
     */
    public void publish(String cluster, String region, String watchType, JsonNode object, String jobId, String podName) {
        if (object instanceof ObjectNode o && !o.hasNonNull("apiVersion")) {
            o.put("apiVersion", "v1");
        }
        String namespace = object.path("metadata").path("namespace").asText("");
        String key = cluster + "/" + namespace + "/" + podName;
        K8sRawObject raw = new K8sRawObject(cluster, region, watchType, object, jobId);
        String value = CloudEvents.encode(SOURCE, K8sRawObject.TYPE, jobId, raw);
        Message<String> m = Message.of(value)
                .addMetadata(OutgoingKafkaRecordMetadata.<String>builder().withKey(key).build());
        emitter.sendMessage(m).subscribe().with(ok -> published.incrementAndGet(), e -> {
            failed.incrementAndGet();
            // The next resync or relist hands the object out again.
            LOG.warnf("could not publish %s %s: %s", object.path("kind").asText(), key, e.getMessage());
        });
    }

    public long published() {
        return published.get();
    }
}
