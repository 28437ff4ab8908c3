package io.jobmon.logs.chunk;

import java.io.ByteArrayOutputStream;

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

    /** A growable byte buffer with the varint writers. */
    static final class Buf extends ByteArrayOutputStream {
        Buf(int size) {
            super(size);
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

        /** The bytes written so far, without a copy (valid until the next write). */
        byte[] array() {
            return buf;
        }
    }
}
