package io.jobmon.contracts.bytes;

import java.util.Arrays;

/**
 * A growable byte array with the field writes of jobmon's binary formats: unsigned LEB128 varints, zigzag varints and
 * 8-byte fixed fields (big-endian or little-endian, as the format says). Not synchronized; reusable after
 * {@link #reset}. {@link ByteReader} reads what it writes.
 */
public final class ByteWriter {

    private byte[] buf;
    private int size;

    public ByteWriter(int capacity) {
        buf = new byte[Math.max(16, capacity)];
    }

    /** The bytes written. */
    public int size() {
        return size;
    }

    /** The bytes written so far in {@code [0, size())}, without a copy: valid until the next write. */
    public byte[] array() {
        return buf;
    }

    /** A copy of the bytes written (the array itself when it is exactly full). */
    public byte[] toArray() {
        return size == buf.length ? buf : Arrays.copyOf(buf, size);
    }

    public void reset() {
        size = 0;
    }

    private void room(int more) {
        if (size + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
        }
    }

    /** One byte: the low 8 bits of {@code b}. */
    public void put(int b) {
        room(1);
        buf[size++] = (byte) b;
    }

    public void put(byte[] b) {
        put(b, 0, b.length);
    }

    public void put(byte[] b, int from, int length) {
        room(length);
        System.arraycopy(b, from, buf, size, length);
        size += length;
    }

    /** Unsigned LEB128: 7 bits a byte, low bits first, the high bit set on every byte but the last (1 to 10 bytes). */
    public void varint(long v) {
        room(10);
        while ((v & ~0x7FL) != 0) {
            buf[size++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buf[size++] = (byte) v;
    }

    /** A signed number as a varint of its zigzag form (0, -1, 1, -2 … as 0, 1, 2, 3 …): small magnitudes, few bytes. */
    public void zigzag(long v) {
        varint((v << 1) ^ (v >> 63));
    }

    /** 8 bytes, most significant first. */
    public void fixed64(long v) {
        room(8);
        for (int i = 56; i >= 0; i -= 8) {
            buf[size++] = (byte) (v >>> i);
        }
    }

    /** 8 bytes, least significant first. */
    public void fixed64LittleEndian(long v) {
        room(8);
        for (int i = 0; i < 64; i += 8) {
            buf[size++] = (byte) (v >>> i);
        }
    }
}
