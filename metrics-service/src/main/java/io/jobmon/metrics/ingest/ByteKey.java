package io.jobmon.metrics.ingest;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A range of bytes with its hash, as a map key: a probe over a request's or a record's buffer, or a kept copy
 * ({@link #copy}). What the ingest path finds its strings and series' label blocks again by, without decoding them.
 */
public final class ByteKey {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final byte[] bytes;
    private final int from;
    private final int length;
    private final int hash;

    public ByteKey(byte[] bytes, int from, int length) {
        this.bytes = bytes;
        this.from = from;
        this.length = length;
        this.hash = hash(bytes, from, length);
    }

    private ByteKey(byte[] bytes, int hash) {
        this.bytes = bytes;
        this.from = 0;
        this.length = bytes.length;
        this.hash = hash;
    }

    /** The same bytes in an array of their own (the buffer probed is not kept). */
    public ByteKey copy() {
        return new ByteKey(Arrays.copyOfRange(bytes, from, from + length), hash);
    }

    /** Eight bytes a step: multiply-xor, then the tail bytes. */
    static int hash(byte[] b, int from, int length) {
        long h = length;
        int i = from;
        int end = from + length;
        for (; i + 8 <= end; i += 8) {
            h = (h ^ (long) LONGS.get(b, i)) * 0x9E3779B97F4A7C15L;
        }
        for (; i < end; i++) {
            h = (h ^ b[i]) * 0x100000001B3L;
        }
        return (int) (h ^ (h >>> 32));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ByteKey k && k.hash == hash && k.length == length
                && Arrays.equals(bytes, from, from + length, k.bytes, k.from, k.from + k.length);
    }

    @Override
    public int hashCode() {
        return hash;
    }
}
