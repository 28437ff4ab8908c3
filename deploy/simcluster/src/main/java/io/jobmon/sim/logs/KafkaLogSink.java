package io.jobmon.sim.logs;

import java.time.Instant;
import java.util.Properties;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ships lines to Kafka as Fluent Bit records ({@link FluentBitRecords}). Keys: {@code cluster/namespace/pod/container}
 * for container lines, {@code cluster/node} for journal lines (a stock Fluent Bit sends no key unless configured;
 * consumers must not need it). Sends happen on a thread of their own behind a bounded queue, so a slow or absent
 * broker never holds the sim's thread; when the queue is full, lines are dropped and counted.
 */
public final class KafkaLogSink implements LogSink {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaLogSink.class);

    private final String cluster;
    private final String topic;
    private final KafkaProducer<String, String> producer;
    private final ThreadPoolExecutor sender;
    private final AtomicLong dropped = new AtomicLong();

    public KafkaLogSink(String bootstrap, String topic, String cluster) {
        this.cluster = cluster;
        this.topic = topic;
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "sim-fluent-bit");
        p.put(ProducerConfig.ACKS_CONFIG, "1");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "50");
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "10000");
        p.put(ProducerConfig.BUFFER_MEMORY_CONFIG, String.valueOf(8 << 20));
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        this.producer = new KafkaProducer<>(p);
        this.sender = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(20_000), r -> {
            Thread t = new Thread(r, "sim-log-shipper");
            t.setDaemon(true);
            return t;
        }, (r, e) -> {
            if (dropped.incrementAndGet() % 1000 == 1) {
                LOG.warn("log shipper queue full: {} lines dropped so far", dropped.get());
            }
        });
    }

    @Override
    public void container(ContainerRef c, Instant time, String stream, String line) {
        String key = cluster + "/" + c.namespace() + "/" + c.pod() + "/" + c.container();
        String value = FluentBitRecords.container(cluster, c, time, stream, line);
        send(key, value);
    }

    @Override
    public void journal(JournalRef j, Instant time, String message) {
        send(cluster + "/" + j.host(), FluentBitRecords.journal(cluster, j, time, message));
    }

    private void send(String key, String value) {
        sender.execute(() -> producer.send(new ProducerRecord<>(topic, key, value), (md, e) -> {
            if (e != null) {
                LOG.debug("log line not shipped: {}", e.getMessage());
            }
        }));
    }

    public long dropped() {
        return dropped.get();
    }

    @Override
    public void close() {
        sender.shutdown();
        try {
            sender.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        producer.close(java.time.Duration.ofSeconds(5));
    }
}
