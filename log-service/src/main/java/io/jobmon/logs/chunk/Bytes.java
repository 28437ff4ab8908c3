package io.jobmon.logs.chunk;

import java.util.Arrays;

/** The varint and fixed-width forms of the chunk body: a growable writer, and readers over a byte array. */
final class Bytes {

    private Bytes() {
    }

    static long varint(byte[] b, int[] pos) {
        long v = 0;
        int shift = 0;
        while (true) {
            byte x = b[pos[0]++];
            v |= (long) (x & 0x7F) << shift;
            if (x >= 0) {
                return v;
            }
            shift += 7;
        }
    }

    static long fixed64(byte[] b, int[] pos) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v |= (b[pos[0]++] & 0xFFL) << (8 * i);
        }
        return v;
    }

    static long unzigzag(long v) {
        return (v >>> 1) ^ -(v & 1);
    }

    /** A growable byte buffer with the varint writers (not synchronized, unlike ByteArrayOutputStream). */
    static final class Buf {
        private byte[] buf;
        private int count;

        Buf(int size) {
            buf = new byte[Math.max(16, size)];
        }

        void write(int b) {
            if (count == buf.length) {
                buf = Arrays.copyOf(buf, buf.length * 2);
            }
            buf[count++] = (byte) b;
        }

        void write(byte[] b, int off, int len) {
            if (count + len > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, count + len));
            }
            System.arraycopy(b, off, buf, count, len);
            count += len;
        }

        void varint(long v) {
            while ((v & ~0x7FL) != 0) {
                write((int) ((v & 0x7F) | 0x80));
                v >>>= 7;
            }
            write((int) v);
        }

        void zigzag(long v) {
            varint((v << 1) ^ (v >> 63));
        }

        void fixed64(long v) {
            for (int i = 0; i < 8; i++) {
                write((int) (v >>> (8 * i)));
            }
        }

        void reset() {
            count = 0;
        }

        int size() {
            return count;
        }

        /** The bytes written so far, without a copy (valid until the next write). */
        byte[] array() {
            return buf;
        }
    }
}
