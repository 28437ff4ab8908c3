package io.jobmon.logs.chunk;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * A chunk's keyword filter: a bloom filter (one hash) of the trigrams of its lines, ASCII letters lowercased, a
 * power-of-two number of bits. A keyword whose trigrams are not all set cannot occur in the chunk. Built at the
 * largest size, then folded (halves OR-ed) while the fill stays under the target: the bit of hash {@code h} in a
 * filter of {@code m} bits is {@code h & (m - 1)} at every size, so PostgreSQL tests it the same way
 * ({@code bloom_may_contain}). Bit {@code n} is bit {@code n & 7} of byte {@code n >> 3}, as {@code get_bit} reads it.
 */
public final class TrigramFilter {

    /** Folding stops before more than this fraction of bits would be set. */
    public static final double MAX_FILL = 0.30;
    private static final int MIN_BYTES = 64;

    private final long[] words;

    public TrigramFilter(int maxBits) {
        if (Integer.bitCount(maxBits) != 1 || maxBits < MIN_BYTES * 8) {
            throw new IllegalArgumentException("filter bits must be a power of two >= 512: " + maxBits);
        }
        this.words = new long[maxBits / 64];
    }

    /** Adds the trigrams of {@code len} bytes of one line. */
    public void add(byte[] buf, int off, int len) {
        if (len < 3) {
            return;
        }
        int mask = words.length * 64 - 1;
        int t = (lower(buf[off]) << 8) | lower(buf[off + 1]);
        for (int i = off + 2, end = off + len; i < end; i++) {
            t = ((t << 8) | lower(buf[i])) & 0xFFFFFF;
            int h = hash(t) & mask;
            words[h >>> 6] |= 1L << h;
        }
    }

    /** The filter at the smallest size whose fill stays under {@link #MAX_FILL}. */
    public byte[] build() {
        long[] w = words;
        while (w.length * 8 > MIN_BYTES) {
            int half = w.length / 2;
            long[] folded = new long[half];
            int set = 0;
            for (int i = 0; i < half; i++) {
                folded[i] = w[i] | w[i + half];
                set += Long.bitCount(folded[i]);
            }
            if (set > MAX_FILL * half * 64) {
                break;
            }
            w = folded;
        }
        byte[] out = new byte[w.length * 8];
        for (int i = 0; i < w.length; i++) {
            long v = w[i];
            for (int b = 0; b < 8; b++) {
                out[i * 8 + b] = (byte) (v >>> (8 * b));
            }
        }
        return out;
    }

    public void clear() {
        Arrays.fill(words, 0L);
    }

    /**
     * The hashes a chunk must hold for {@code keyword} to occur in it; empty when the keyword is too short to tell.
     *
     * @param ignoreCase when true, trigrams with non-ASCII bytes are left out (only ASCII letters are folded)
     */
    public static int[] hashes(String keyword, boolean ignoreCase) {
        byte[] b = keyword.getBytes(StandardCharsets.UTF_8);
        Set<Integer> out = new LinkedHashSet<>();
        for (int i = 0; i + 2 < b.length; i++) {
            if (ignoreCase && (b[i] < 0 || b[i + 1] < 0 || b[i + 2] < 0)) {
                continue;
            }
            int t = (lower(b[i]) << 16) | (lower(b[i + 1]) << 8) | lower(b[i + 2]);
            out.add(hash(t));
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The test PostgreSQL runs, for chunks already read. */
    public static boolean mayContain(byte[] filter, int[] hashes) {
        int mask = filter.length * 8 - 1;
        for (int h : hashes) {
            int bit = h & mask;
            if ((filter[bit >>> 3] & (1 << (bit & 7))) == 0) {
                return false;
            }
        }
        return true;
    }

    private static int lower(byte b) {
        int c = b & 0xFF;
        return c >= 'A' && c <= 'Z' ? c + 32 : c;
    }

    /** A non-negative 31-bit mix of a trigram. */
    static int hash(int t) {
        int x = t * 0x9E3779B1;
        x ^= x >>> 15;
        x *= 0x85EBCA77;
        x ^= x >>> 13;
        return x & 0x7FFFFFFF;
    }
}
