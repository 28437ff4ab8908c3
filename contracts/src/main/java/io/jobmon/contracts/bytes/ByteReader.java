package io.jobmon.contracts.bytes;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads the fields {@link ByteWriter} writes from {@code [from, end)} of an array, never past {@code end}: bytes that
 * end inside a field or a varint over 10 bytes fail with a {@link MalformedBytesException}, never an index exception.
 * Not synchronized.
 */
public final class ByteReader {

    private final byte[] b;
    private final int end;
    private int pos;

    public ByteReader(byte[] b) {
        this(b, 0, b.length);
    }

    public ByteReader(byte[] b, int from, int end) {
        if (from < 0 || from > end || end > b.length) {
            throw new IndexOutOfBoundsException("[" + from + ", " + end + ") of " + b.length + " bytes");
        }
        this.b = b;
        this.pos = from;
        this.end = end;
    }

    /** The array read (not a copy). */
    public byte[] array() {
        return b;
    }

    public int position() {
        return pos;
    }

    /** Moves to {@code p}, which may be {@code end} but not past it. */
    public void position(int p) {
        if (p < 0 || p > end) {
            throw new MalformedBytesException("a jump to byte " + p + " past the end " + end, pos);
        }
        pos = p;
    }

    public int remaining() {
        return end - pos;
    }

    public boolean more() {
        return pos < end;
    }

    /** Fails unless {@code n} more bytes are there (a count read from the data checked before allocating for it). */
    public void need(long n) {
        if (n > end - pos) {
            throw new MalformedBytesException("truncated: " + n + " bytes needed, " + (end - pos) + " left", pos);
        }
    }

    public void skip(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("skip " + n);
        }
        need(n);
        pos += n;
    }

    /** One byte, 0 to 255. */
    public int get() {
        if (pos >= end) {
            throw new MalformedBytesException("truncated", pos);
        }
        return b[pos++] & 0xFF;
    }

    /** An unsigned LEB128 varint (as {@link ByteWriter#varint}). */
    public long varint() {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (pos >= end) {
                throw new MalformedBytesException("truncated inside a varint", pos);
            }
            byte x = b[pos++];
            v |= (long) (x & 0x7F) << shift;
            if (x >= 0) {
                return v;
            }
        }
        throw new MalformedBytesException("a varint over 10 bytes", pos);
    }

    /** A zigzag varint (as {@link ByteWriter#zigzag}). */
    public long zigzag() {
        return unzigzag(varint());
    }

    /** 8 bytes, most significant first. */
    public long fixed64() {
        need(8);
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = v << 8 | (b[pos++] & 0xFFL);
        }
        return v;
    }

    /** 8 bytes, least significant first. */
    public long fixed64LittleEndian() {
        need(8);
        long v = 0;
        for (int i = 0; i < 64; i += 8) {
            v |= (b[pos++] & 0xFFL) << i;
        }
        return v;
    }

    /** Skips {@code n} varints without decoding them. */
    public void skipVarints(int n) {
        for (int i = 0; i < n; i++) {
            while (get() >= 0x80) {
                // a continuation byte
            }
        }
    }

    /** The signed number of a zigzag form. */
    public static long unzigzag(long v) {
        return (v >>> 1) ^ -(v & 1);
    }

    /** An unsigned LEB128 varint read from a stream; an {@link EOFException} when it ends inside one. */
    public static long varint(InputStream in) throws IOException {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int x = in.read();
            if (x < 0) {
                throw new EOFException("the stream ends inside a varint");
            }
            v |= (long) (x & 0x7F) << shift;
            if ((x & 0x80) == 0) {
                return v;
            }
        }
        throw new IOException("a varint over 10 bytes");
    }
}
