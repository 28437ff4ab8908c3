package io.jobmon.metrics.store.codec;

import java.util.Arrays;

/** A growable byte buffer with the varint writes of the chunk formats, and its reader. */
public final class Bytes {

    private byte[] buf;
    private int size;

    public Bytes(int capacity) {
        buf = new byte[Math.max(16, capacity)];
    }

    public int size() {
        return size;
    }

    public byte[] array() {
        return buf;
    }

    public byte[] toArray() {
        return Arrays.copyOf(buf, size);
    }

    public void reset() {
        size = 0;
    }

    private void ensure(int more) {
        if (size + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
        }
    }

    public void put(int b) {
        ensure(1);
        buf[size++] = (byte) b;
    }

    public void put(byte[] b) {
        put(b, 0, b.length);
    }

    public void put(byte[] b, int from, int length) {
        ensure(length);
        System.arraycopy(b, from, buf, size, length);
        size += length;
    }

    /** Unsigned LEB128. */
    public void varint(long v) {
        ensure(10);
        while ((v & ~0x7FL) != 0) {
            buf[size++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buf[size++] = (byte) v;
    }

    /** Zig-zag signed varint. */
    public void svarint(long v) {
        varint((v << 1) ^ (v >> 63));
    }

    /** Reads what {@link Bytes} wrote. */
    public static final class Reader {
        private final byte[] b;
        private int pos;
        private final int end;

        public Reader(byte[] b) {
            this(b, 0, b.length);
        }

        public Reader(byte[] b, int from, int end) {
            this.b = b;
            this.pos = from;
            this.end = end;
        }

        public boolean more() {
            return pos < end;
        }

        public int position() {
            return pos;
        }

        public void skip(int n) {
            if (n < 0 || pos + n > end) {
                throw new IllegalStateException("truncated block");
            }
            pos += n;
        }

        public int get() {
            if (pos >= end) {
                throw new IllegalStateException("truncated block");
            }
            return b[pos++] & 0xFF;
        }

        public long varint() {
            long v = 0;
            int shift = 0;
            while (true) {
                int x = get();
                v |= (long) (x & 0x7F) << shift;
                if ((x & 0x80) == 0) {
                    return v;
                }
                shift += 7;
                if (shift > 63) {
                    throw new IllegalStateException("varint too long");
                }
            }
        }

        public long svarint() {
            long v = varint();
            return (v >>> 1) ^ -(v & 1);
        }
    }
}
