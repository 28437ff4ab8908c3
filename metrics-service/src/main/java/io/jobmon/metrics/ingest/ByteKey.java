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

    /**
     * Eight bytes a step (rotate-multiply, as xxHash's rounds), the tail bytes one by one, then MurmurHash3's final
     * mix: label blocks of one node differ in a few bytes anywhere, and every bit must reach the map's low bits.
     */
    static int hash(byte[] b, int from, int length) {
        long h = length * 0x27D4EB2F165667C5L;
        int i = from;
        int end = from + length;
        for (; i + 8 <= end; i += 8) {
            h = Long.rotateLeft(h ^ (long) LONGS.get(b, i) * 0xC2B2AE3D27D4EB4FL, 31) * 0x9E3779B97F4A7C15L;
        }
        for (; i < end; i++) {
            h = Long.rotateLeft(h ^ (b[i] & 0xffL) * 0x27D4EB2F165667C5L, 11) * 0x9E3779B97F4A7C15L;
        }
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB9FE1A85EC53L;
        h ^= h >>> 33;
        return (int) h;
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
