package io.jobmon.contracts.messaging;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The dead-letter queue's serializer for channels read with {@link ExactStringDeserializer}: the string as UTF-8, or,
 * when the record was not UTF-8, the record's own bytes from the header the deserializer left (the header itself is
 * not written). Configure it as {@code mp.messaging.incoming.<channel>.dead-letter-queue.value.serializer} (and
 * {@code key.serializer}).
 */
public class ExactStringSerializer implements Serializer<String> {

    private String header = ExactStringDeserializer.RAW_VALUE;

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        header = isKey ? ExactStringDeserializer.RAW_KEY : ExactStringDeserializer.RAW_VALUE;
    }

    @Override
    public byte[] serialize(String topic, String data) {
        return data == null ? null : data.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public byte[] serialize(String topic, Headers headers, String data) {
        if (headers != null) {
            Header raw = headers.lastHeader(header);
            if (raw != null) {
                headers.remove(header);
                return raw.value();
            }
        }
        return serialize(topic, data);
    }
}
