package io.jobmon.testsupport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** A dead letter is the record's bytes: sends bytes that are not UTF-8 and reads them back from {@code <topic>.dlq}. */
public final class DeadLetters {

    /** Not UTF-8: {@code 00 01 ff fe}, which a string decoding would turn into 8 bytes. */
    public static final byte[] NOT_UTF8 = {0x00, 0x01, (byte) 0xff, (byte) 0xfe};

    private DeadLetters() {
    }

    /** Sends {@link #NOT_UTF8} to {@code topic} and checks that {@code topic.dlq} holds it byte for byte, with a reason. */
    public static void assertKeptByteForByte(String topic) {
        String key = "dlq-probe-" + UUID.randomUUID();
        send(topic, key.getBytes(StandardCharsets.UTF_8), NOT_UTF8);
        ConsumerRecord<byte[], byte[]> dead = await(topic + ".dlq", key.getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(60));
        assertNotNull(dead, "no dead letter on " + topic + ".dlq");
        assertArrayEquals(NOT_UTF8, dead.value(), "the dead letter is the record's bytes: " + Arrays.toString(dead.value()));
        assertNotNull(dead.headers().lastHeader("dead-letter-reason"), "the reason is in the headers");
        assertNull(dead.headers().lastHeader("jobmon-raw-value"), "no helper header is written");
    }

    static void send(String topic, byte[] key, byte[] value) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, EmbeddedKafka.bootstrapServers());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            producer.send(new ProducerRecord<>(topic, key, value)).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    static ConsumerRecord<byte[], byte[]> await(String topic, byte[] key, Duration timeout) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, EmbeddedKafka.bootstrapServers());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "test-" + UUID.randomUUID());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        long deadline = System.nanoTime() + timeout.toNanos();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p)) {
            consumer.subscribe(List.of(topic));
            while (System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (Arrays.equals(key, r.key())) {
                        return r;
                    }
                }
            }
        }
        return null;
    }
}
