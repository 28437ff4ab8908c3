package io.jobmon.logs.intake;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Which masking rules' hints occur in a line, in one pass over it: the line's ASCII characters lowercased on the fly,
 * and at each position only the hints that begin with the two characters found there compared. The answer is what
 * {@code line.toLowerCase(Locale.ROOT).contains(hint)} gives for every hint (a line with other characters is
 * answered that way), so the rules that run are the same as when each hint is searched on its own; most lines of
 * training output contain no hint and run no regex.
 */
final class HintScan {

    /** At most this many rules get a bit; beyond, the others are looked for one by one. */
    static final int MAX_RULES = 63;

    private final List<List<String>> hints;
    /** Rules without hints: always run. */
    private final long always;
    /** Whether a hint has other than ASCII characters, or there are more rules than bits: only the string scan then. */
    private final boolean otherHints;
    /** Per two lowercase ASCII characters ({@code c0 << 7 | c1}): the hints beginning with them, or null. */
    private final Entry[][] byPair = new Entry[1 << 14][];
    /** The pairs that begin a hint, one bit each: 2 KB, looked at for every character (the table is 64 KB). */
    private final long[] pairBits = new long[1 << 8];
    /** Per lowercase ASCII character: the one-character hints. */
    private final long[] single = new long[128];

    private record Entry(String hint, long bit) {
    }

    /** @param hints per rule, lowercase; an empty list: the rule always runs */
    HintScan(List<List<String>> hints) {
        this.hints = hints;
        long all = 0;
        boolean other = hints.size() > MAX_RULES;
        List<List<Entry>> pairs = new ArrayList<>();
        for (int i = 0; i < 1 << 14; i++) {
            pairs.add(null);
        }
        for (int r = 0; r < hints.size(); r++) {
            long bit = r < MAX_RULES ? 1L << r : 0;
            if (hints.get(r).isEmpty() || bit == 0) {
                all |= bit;
                continue;
            }
            for (String h : hints.get(r)) {
                if (h.isEmpty()) {
                    all |= bit;
                } else if (!ascii(h)) {
                    other = true;
                    continue; // never in a line of ASCII characters; other lines are checked the slow way
                } else if (h.length() == 1) {
                    single[h.charAt(0)] |= bit;
                } else {
                    int key = h.charAt(0) << 7 | h.charAt(1);
                    if (pairs.get(key) == null) {
                        pairs.set(key, new ArrayList<>());
                    }
                    pairs.get(key).add(new Entry(h, bit));
                }
            }
        }
        this.always = all;
        this.otherHints = other;
        for (int i = 0; i < pairs.size(); i++) {
            if (pairs.get(i) != null) {
                byPair[i] = pairs.get(i).toArray(Entry[]::new);
                pairBits[i >>> 6] |= 1L << i;
            }
        }
    }

    /** Bit {@code r} set: rule {@code r} (< {@link #MAX_RULES}) should run on the line. */
    long scan(String line) {
        int n = line.length();
        long found = always;
        for (int i = 0; i < n; i++) {
            int c0 = lower(line.charAt(i));
            if (c0 >= 128) {
                return slow(line);
            }
            found |= single[c0];
            if (i + 1 < n) {
                int c1 = lower(line.charAt(i + 1));
                Entry[] candidates = c1 < 128 ? byPair[c0 << 7 | c1] : null;
                if (candidates != null) {
                    for (Entry e : candidates) {
                        if ((found & e.bit) == 0 && matchesAt(line, i, e.hint)) {
                            found |= e.bit;
                        }
                    }
                }
            }
        }
        return found;
    }

    /**
     * {@link #scan(String)} of the text {@code utf8[from, to)} (well-formed UTF-8), without decoding it: a hint is
     * ASCII, and in UTF-8 an ASCII byte is always that character. A character of another script that lowercases to
     * ASCII (the Kelvin sign to {@code k}, {@code İ} to {@code i̇}), or hints that are not ASCII, need the string:
     * then the answer is -1 (all bits).
     */
    long scan(byte[] utf8, int from, int to) {
        if (otherHints) {
            return -1; // hints beyond ASCII, or rules beyond MAX_RULES: the string scan finds those
        }
        long found = always;
        for (int i = from; i < to; i++) {
            int c0 = utf8[i];
            if (c0 < 0) {
                int n = Utf8.sequence(utf8, i, to);
                if (n < 0 || LOWERS_TO_ASCII.get(Utf8.codePoint(utf8, i, n))) {
                    return -1;
                }
                i += n - 1;
                continue;
            }
            c0 = lower(c0);
            found |= single[c0];
            int key;
            if (i + 1 < to && utf8[i + 1] >= 0 && (pairBits[(key = c0 << 7 | lower(utf8[i + 1])) >>> 6] & 1L << key) != 0) {
                for (Entry e : byPair[key]) {
                    if ((found & e.bit) == 0 && matchesAt(utf8, i, to, e.hint)) {
                        found |= e.bit;
                    }
                }
            }
        }
        return found;
    }

    /** Characters beyond ASCII whose lowercase ({@link Locale#ROOT}) holds an ASCII character. */
    private static final java.util.BitSet LOWERS_TO_ASCII = new java.util.BitSet();

    static {
        for (int cp = 0x80; cp <= Character.MAX_CODE_POINT; cp++) {
            if (cp >= Character.MIN_SURROGATE && cp <= Character.MAX_SURROGATE) {
                continue;
            }
            // Only the BMP has special (multi-character) lowercasing; elsewhere the simple mapping is the string's.
            boolean ascii = cp <= 0xFFFF ? String.valueOf((char) cp).toLowerCase(Locale.ROOT).chars().anyMatch(c -> c < 0x80)
                    : Character.toLowerCase(cp) < 0x80;
            if (ascii) {
                LOWERS_TO_ASCII.set(cp);
            }
        }
    }

    private static boolean matchesAt(byte[] line, int at, int to, String hint) {
        if (at + hint.length() > to) {
            return false;
        }
        for (int k = 2; k < hint.length(); k++) {
            if (lower(line[at + k]) != hint.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    private static int lower(int c) {
        return c >= 'A' && c <= 'Z' ? c + 32 : c;
    }

    /** Whether rule {@code r} should run: for rules past {@link #MAX_RULES}, its hints are searched one by one. */
    boolean runs(long found, int r, String line) {
        return r < MAX_RULES ? (found & 1L << r) != 0 : slowRule(line.toLowerCase(Locale.ROOT), r);
    }

    private long slow(String line) {
        String lower = line.toLowerCase(Locale.ROOT);
        long found = 0;
        for (int r = 0; r < Math.min(hints.size(), MAX_RULES); r++) {
            if (slowRule(lower, r)) {
                found |= 1L << r;
            }
        }
        return found;
    }

    private boolean slowRule(String lower, int r) {
        if (hints.get(r).isEmpty()) {
            return true;
        }
        for (String h : hints.get(r)) {
            if (lower.contains(h)) {
                return true;
            }
        }
        return false;
    }

    private static boolean matchesAt(String line, int at, String hint) {
        if (at + hint.length() > line.length()) {
            return false;
        }
        for (int k = 2; k < hint.length(); k++) {
            if (lower(line.charAt(at + k)) != hint.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    private static int lower(char c) {
        return c >= 'A' && c <= 'Z' ? c + 32 : c;
    }

    private static boolean ascii(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 128) {
                return false;
            }
        }
        return true;
    }
}
