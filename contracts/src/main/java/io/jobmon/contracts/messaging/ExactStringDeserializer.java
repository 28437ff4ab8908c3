package io.jobmon.contracts.messaging;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * A record's key or value as a UTF-8 string, like Kafka's {@code StringDeserializer}, except that bytes which are not
 * UTF-8 are not lost: decoding would replace them (4 bytes {@code 00 01 ff fe} become 8), so the record's own bytes are
 * kept in a header ({@value #RAW_VALUE} / {@value #RAW_KEY}) that {@link ExactStringSerializer}, the dead-letter
 * queue's serializer, writes back instead of the string. A dead letter is the record's bytes. Valid UTF-8 (every
 * well-formed record) costs one scan for U+FFFD and no header.
 */
public class ExactStringDeserializer implements Deserializer<String> {

    /** Header holding a value's bytes that are not UTF-8. */
    public static final String RAW_VALUE = "jobmon-raw-value";
    /** Header holding a key's bytes that are not UTF-8. */
    public static final String RAW_KEY = "jobmon-raw-key";

    private String header = RAW_VALUE;

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        header = isKey ? RAW_KEY : RAW_VALUE;
    }

    @Override
    public String deserialize(String topic, byte[] data) {
        return data == null ? null : new String(data, StandardCharsets.UTF_8);
    }

    @Override
    public String deserialize(String topic, Headers headers, byte[] data) {
        if (data == null) {
            return null;
        }
        String s = new String(data, StandardCharsets.UTF_8);
        if (headers != null && s.indexOf('\uFFFD') >= 0 && !Arrays.equals(s.getBytes(StandardCharsets.UTF_8), data)) {
            headers.remove(header);
            headers.add(header, data);
        }
        return s;
    }
}
