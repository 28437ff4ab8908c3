package io.jobmon.contracts.bytes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** The field encodings byte for byte, what comes back, and broken bytes failing as such. */
class ByteReaderWriterTest {

    static String hex(ByteWriter w) {
        return HexFormat.of().formatHex(w.toArray());
    }

    @Test
    void fieldsAreWrittenAsTheFormatsSay() {
        ByteWriter w = new ByteWriter(1);
        w.varint(0);
        w.varint(127);
        w.varint(300);
        assertEquals("007fac02", hex(w));
        w.reset();
        w.zigzag(0);
        w.zigzag(-1);
        w.zigzag(1);
        w.zigzag(-64);
        w.zigzag(64);
        assertEquals("0001027f8001", hex(w));
        w.reset();
        w.varint(-1);
        assertEquals("ffffffffffffffffff01", hex(w), "a negative long is 10 bytes");
        w.reset();
        w.fixed64(0x0102030405060708L);
        w.fixed64LittleEndian(0x0102030405060708L);
        assertEquals("01020304050607080807060504030201", hex(w));
    }

    @Test
    void whatIsWrittenReadsBack() throws Exception {
        long[] values = {0, 1, 127, 128, 16_383, 16_384, Integer.MAX_VALUE, Long.MAX_VALUE, Long.MIN_VALUE, -1, -300};
        ByteWriter w = new ByteWriter(4);
        for (long v : values) {
            w.varint(v);
            w.zigzag(v);
            w.fixed64(v);
            w.fixed64LittleEndian(v);
        }
        w.put(0xAB);
        w.put(new byte[] {1, 2, 3}, 1, 2);
        ByteReader r = new ByteReader(w.array(), 0, w.size());
        for (long v : values) {
            assertEquals(v, r.varint());
            assertEquals(v, r.zigzag());
            assertEquals(v, r.fixed64());
            assertEquals(v, r.fixed64LittleEndian());
        }
        assertEquals(0xAB, r.get());
        assertEquals(2, r.get());
        assertEquals(3, r.get());
        assertFalse(r.more());
        assertEquals(300, ByteReader.varint(new ByteArrayInputStream(new byte[] {(byte) 0xac, 0x02})));
        assertThrows(EOFException.class, () -> ByteReader.varint(new ByteArrayInputStream(new byte[] {(byte) 0xac})));
    }

    @Test
    void skippingVarintsLandsOnTheNextField() {
        ByteWriter w = new ByteWriter(16);
        w.varint(300);
        w.varint(1);
        w.varint(Long.MAX_VALUE);
        w.put(9);
        ByteReader r = new ByteReader(w.toArray());
        r.skipVarints(3);
        assertEquals(9, r.get());
    }

    @Test
    void brokenBytesFailAsBrokenNeverAsAnIndexError() {
        byte[] b = {(byte) 0x80, (byte) 0x80};
        MalformedBytesException e = assertThrows(MalformedBytesException.class, () -> new ByteReader(b).varint());
        assertTrue(e.getMessage().contains("truncated"), e.getMessage());
        assertEquals(2, e.position());
        byte[] eleven = new byte[11];
        java.util.Arrays.fill(eleven, (byte) 0x80);
        assertTrue(assertThrows(MalformedBytesException.class, () -> new ByteReader(eleven).varint()).getMessage()
                .contains("over 10 bytes"));
        assertThrows(MalformedBytesException.class, () -> new ByteReader(new byte[7]).fixed64());
        assertThrows(MalformedBytesException.class, () -> new ByteReader(new byte[7]).fixed64LittleEndian());
        ByteReader r = new ByteReader(new byte[] {1, 2, 3, 4}, 1, 3);
        assertEquals(2, r.get());
        assertThrows(MalformedBytesException.class, () -> r.skip(2));
        assertEquals(3, r.get());
        assertThrows(MalformedBytesException.class, r::get);
        assertThrows(MalformedBytesException.class, () -> r.position(4));
    }
}
