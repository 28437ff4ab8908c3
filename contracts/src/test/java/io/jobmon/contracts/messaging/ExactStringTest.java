package io.jobmon.contracts.messaging;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/** A record that is not UTF-8 is written back byte for byte; a UTF-8 one is the string, with no header. */
class ExactStringTest {

    private final ExactStringDeserializer in = new ExactStringDeserializer();
    private final ExactStringSerializer out = new ExactStringSerializer();

    @Test
    void bytesThatAreNotUtf8AreWrittenBackAsTheyCame() {
        byte[] raw = {0x00, 0x01, (byte) 0xff, (byte) 0xfe};
        RecordHeaders headers = new RecordHeaders();
        String s = in.deserialize("t", headers, raw);
        assertEquals("\u0000\u0001\uFFFD\uFFFD", s);
        assertArrayEquals(raw, out.serialize("t.dlq", headers, s));
        assertNull(headers.lastHeader(ExactStringDeserializer.RAW_VALUE), "the helper header is not written");
    }

    @Test
    void utf8IncludingAReplacementCharacterOfItsOwnIsUnchanged() {
        for (String text : new String[] {"{\"a\":1}", "损失 loss=0.31 \uFFFD ok", ""}) {
            byte[] raw = text.getBytes(StandardCharsets.UTF_8);
            RecordHeaders headers = new RecordHeaders();
            String s = in.deserialize("t", headers, raw);
            assertEquals(text, s);
            assertEquals(0, headers.toArray().length);
            assertArrayEquals(raw, out.serialize("t.dlq", headers, s));
        }
    }

    @Test
    void keysKeepTheirOwnHeader() {
        in.configure(Map.of(), true);
        out.configure(Map.of(), true);
        byte[] raw = {(byte) 0xc3, 0x28};
        RecordHeaders headers = new RecordHeaders();
        String s = in.deserialize("t", headers, raw);
        assertArrayEquals(raw, headers.lastHeader(ExactStringDeserializer.RAW_KEY).value());
        assertArrayEquals(raw, out.serialize("t.dlq", headers, s));
        assertNull(in.deserialize("t", headers, (byte[]) null));
    }
}
