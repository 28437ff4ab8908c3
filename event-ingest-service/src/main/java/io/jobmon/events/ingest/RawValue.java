package io.jobmon.events.ingest;

import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * A value of {@code jobmon.k8s.raw} as the Kafka consumer hands it over: already read the fast way
 * ({@link RecordDecoder#fast}) on the consumer's polling thread, so decoding a batch runs alongside the event loop's
 * transaction of the previous one, or else its bytes, for the general way and, if invalid, the dead-letter queue
 * (written back byte for byte by {@link Bytes}).
 *
 * @param bytes the record's value; null once read the fast way (such a record is valid, never dead-lettered)
 * @param fast what the fast way read, without the record's position ({@link RawRecord#at}); null when it gave up
 */
public record RawValue(byte[] bytes, RawRecord fast) {

    /** The consumer's value deserializer ({@code value.deserializer}): the fast way, on the polling thread. */
    public static final class Reader implements Deserializer<RawValue> {
        @Override
        public RawValue deserialize(String topic, byte[] data) {
            RawRecord fast = RecordDecoder.fast(data, -1, -1, null);
            return fast == null ? new RawValue(data, null) : new RawValue(null, fast);
        }
    }

    /** The dead-letter queue's value serializer: the bytes the record came with. */
    public static final class Bytes implements Serializer<RawValue> {
        @Override
        public byte[] serialize(String topic, RawValue value) {
            return value == null ? null : value.bytes();
        }
    }
}
