package io.jobmon.jobs.outbox;

import io.jobmon.contracts.events.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jboss.logging.Logger;

/**
 * Publishes snapshots to {@code jobmon.job.changes} with a plain idempotent producer ({@code acks=all}), bounded in
 * time: when the broker is down a round fails after {@code timeout} and the rows stay in the outbox.
 */
public class KafkaOutboxPublisher implements OutboxPublisher {

    private static final Logger LOG = Logger.getLogger(KafkaOutboxPublisher.class);

    private final KafkaProducer<String, String> producer;
    private final Duration timeout;

    public KafkaOutboxPublisher(String bootstrapServers, Duration timeout) {
        this.timeout = timeout;
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "job-service-outbox");
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, String.valueOf(timeout.toMillis()));
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, String.valueOf(Math.max(1000, timeout.toMillis() / 2)));
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, String.valueOf(timeout.toMillis()));
        p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        this.producer = new KafkaProducer<>(p);
    }

    @Override
    public List<Entry> publish(List<Entry> entries) {
        List<Future<RecordMetadata>> sent = new ArrayList<>(entries.size());
        List<Entry> acked = new ArrayList<>(entries.size());
        try {
            for (Entry e : entries) {
                sent.add(producer.send(new ProducerRecord<>(Topics.JOB_CHANGES, e.jobId(), e.payload())));
            }
            producer.flush();
        } catch (RuntimeException ex) {
            LOG.warnf("outbox: broker not reachable (%s)", ex.getMessage());
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        for (int i = 0; i < sent.size(); i++) {
            try {
                sent.get(i).get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                acked.add(entries.get(i));
            } catch (ExecutionException | TimeoutException ex) {
                LOG.debugf("outbox: %s not acknowledged: %s", entries.get(i).jobId(), ex.getMessage());
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return acked;
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(2));
    }
}
