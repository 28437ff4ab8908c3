package io.jobmon.contracts.outbox;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jboss.logging.Logger;

/**
 * The outbox's producer: built from the service's own {@code kafka.*} configuration (Quarkus'
 * {@code default-kafka-broker} map), so TLS, SASL and every other client setting the channels use apply here too;
 * idempotent with {@code acks=all}, so the order of a key's records is kept and a retried send is not duplicated.
 */
public class KafkaSender implements OutboxSender {

    private static final Logger LOG = Logger.getLogger(KafkaSender.class);

    private final KafkaProducer<String, String> producer;
    private final Duration timeout;

    public KafkaSender(Map<String, Object> kafkaConfig, Duration timeout) {
        this.timeout = timeout;
        this.producer = new KafkaProducer<>(producerConfig(kafkaConfig, timeout), new StringSerializer(),
                new StringSerializer());
    }

    /** The service's {@code kafka.*} settings a producer knows, plus what the outbox needs. */
    static Map<String, Object> producerConfig(Map<String, Object> kafkaConfig, Duration timeout) {
        Map<String, Object> p = new HashMap<>();
        kafkaConfig.forEach((k, v) -> {
            if (ProducerConfig.configNames().contains(k) || k.startsWith("sasl.") || k.startsWith("ssl.")) {
                p.put(k, v);
            }
        });
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        int ms = (int) timeout.toMillis();
        // Every wait is bounded by the round's timeout: send() blocks at most max.block.ms for metadata.
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, ms);
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, Math.max(1000, ms / 3));
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, ms);
        p.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "jobmon-outbox-" + Long.toHexString(System.nanoTime()));
        return p;
    }

    @Override
    public Uni<List<OutboxEntry>> send(List<OutboxEntry> entries) {
        // send() may block for metadata while the broker is away: never on an event loop.
        return Uni.createFrom().item(() -> sendAll(entries))
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
                .chain(futures -> Uni.createFrom().completionStage(
                        CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)))
                        .ifNoItem().after(timeout.plusSeconds(1)).recoverWithItem((Void) null)
                        .map(x -> acknowledged(entries, futures)));
    }

    private List<CompletableFuture<Boolean>> sendAll(List<OutboxEntry> entries) {
        List<CompletableFuture<Boolean>> futures = new ArrayList<>(entries.size());
        for (OutboxEntry e : entries) {
            CompletableFuture<Boolean> f = new CompletableFuture<>();
            try {
                producer.send(new ProducerRecord<>(e.topic(), e.key(), e.payload()), (meta, error) -> {
                    if (error != null) {
                        LOG.debugf("outbox row %d not acknowledged: %s", e.id(), error.getMessage());
                    }
                    f.complete(error == null);
                });
            } catch (RuntimeException ex) {
                LOG.debugf("outbox row %d not sent: %s", e.id(), ex.getMessage());
                f.complete(false);
            }
            futures.add(f);
        }
        return futures;
    }

    private static List<OutboxEntry> acknowledged(List<OutboxEntry> entries, List<CompletableFuture<Boolean>> futures) {
        List<OutboxEntry> acked = new ArrayList<>(entries.size());
        for (int i = 0; i < entries.size(); i++) {
            if (Boolean.TRUE.equals(futures.get(i).getNow(false))) {
                acked.add(entries.get(i));
            }
        }
        return acked;
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
    }
}
