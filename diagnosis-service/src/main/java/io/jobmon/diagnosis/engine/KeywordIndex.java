package io.jobmon.diagnosis.engine;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntConsumer;

/**
 * Case-insensitive Aho-Corasick automaton over many keywords: one linear pass over a text reports
 * every keyword it contains. ASCII transitions are one flat table (one array lookup per character);
 * other characters follow failure links (or reset to the root when no keyword contains them). A keyword ending in {@code \n} matches only at the end of
 * a fully scanned text (the scan feeds a virtual newline after the last character).
 * Immutable and thread-safe after construction.
 */
final class KeywordIndex {

    private static final int ASCII = 128;

    private final int[][] next;
    private final byte[] charClass = new byte[ASCII];
    private final int width;
    /** Transitions by row offset: {@code state * width}, negated minus one when the target state has outputs. */
    private final int[] delta;
    private final Map<Character, Integer>[] wide;
    private final java.util.BitSet wideChars = new java.util.BitSet();
    private final int[] fail;
    private final int[][] out;

    @SuppressWarnings({"unchecked", "rawtypes"})
    KeywordIndex(List<String> keywords) {
        List<int[]> gotoAscii = new ArrayList<>();
        List<Map<Character, Integer>> gotoWide = new ArrayList<>();
        List<List<Integer>> outputs = new ArrayList<>();
        newState(gotoAscii, gotoWide, outputs);
        for (int k = 0; k < keywords.size(); k++) {
            String word = keywords.get(k);
            int s = 0;
            for (int i = 0; i < word.length(); i++) {
                char c = lower(word.charAt(i));
                int t = c < ASCII ? gotoAscii.get(s)[c] : gotoWide.get(s).getOrDefault(c, -1);
                if (c >= ASCII) {
                    wideChars.set(c);
                }
                if (t < 0) {
                    t = newState(gotoAscii, gotoWide, outputs);
                    if (c < ASCII) {
                        gotoAscii.get(s)[c] = t;
                    } else {
                        gotoWide.get(s).put(c, t);
                    }
                }
                s = t;
            }
            outputs.get(s).add(k);
        }
        int n = gotoAscii.size();
        next = gotoAscii.toArray(new int[0][]);
        wide = gotoWide.toArray(new Map[0]);
        fail = new int[n];
        buildFailureLinks(outputs);
        out = new int[n][];
        for (int s = 0; s < n; s++) {
            out[s] = outputs.get(s).stream().distinct().mapToInt(Integer::intValue).toArray();
        }
        width = compressAlphabet(keywords);
        delta = new int[n * width];
        for (int s = 0; s < n; s++) {
            for (int c = 0; c < ASCII; c++) {
                if (c < 'A' || c > 'Z') {
                    delta[s * width + charClass[c]] = encode(next[s][c]);
                }
            }
        }
    }

    private int encode(int state) {
        int offset = state * width;
        return out[state].length > 0 ? -offset - 1 : offset;
    }

    /**
     * Maps every ASCII character that occurs in a keyword (case-folded) to its own class and all
     * others to class 0, so the transition table has one column per class instead of 128.
     */
    private int compressAlphabet(List<String> keywords) {
        int classes = 1;
        for (String k : keywords) {
            for (int i = 0; i < k.length(); i++) {
                char c = lower(k.charAt(i));
                if (c < ASCII && charClass[c] == 0) {
                    charClass[c] = (byte) classes++;
                }
            }
        }
        for (char c = 'A'; c <= 'Z'; c++) {
            charClass[c] = charClass[c + 32];
        }
        return classes;
    }

    private static int newState(List<int[]> a, List<Map<Character, Integer>> w, List<List<Integer>> o) {
        int[] row = new int[ASCII];
        Arrays.fill(row, -1);
        a.add(row);
        w.add(new HashMap<>(2));
        o.add(new ArrayList<>(1));
        return a.size() - 1;
    }

    private void buildFailureLinks(List<List<Integer>> outputs) {
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        queue.add(0);
        while (!queue.isEmpty()) {
            int s = queue.poll();
            for (int c = 0; c < ASCII; c++) {
                int t = next[s][c];
                if (t < 0) {
                    next[s][c] = s == 0 ? 0 : next[fail[s]][c];
                } else {
                    fail[t] = s == 0 ? 0 : next[fail[s]][c];
                    outputs.get(t).addAll(outputs.get(fail[t]));
                    queue.add(t);
                }
            }
            for (Map.Entry<Character, Integer> e : wide[s].entrySet()) {
                int t = e.getValue();
                fail[t] = s == 0 ? 0 : wideStep(fail[s], e.getKey());
                outputs.get(t).addAll(outputs.get(fail[t]));
                queue.add(t);
            }
        }
    }

    private int wideStep(int state, char c) {
        int s = state;
        while (true) {
            Integer t = wide[s].get(c);
            if (t != null) {
                return t;
            }
            if (s == 0) {
                return 0;
            }
            s = fail[s];
        }
    }

    private static char lower(char c) {
        if (c < ASCII) {
            return c >= 'A' && c <= 'Z' ? (char) (c + 32) : c;
        }
        return Character.toLowerCase(c);
    }

    /**
     * Reports the id of every keyword found in {@code text[0, limit)} (an id may be reported twice);
     * when the whole text is scanned a virtual {@code \n} follows it.
     */
    void scan(String text, int limit, IntConsumer sink) {
        int[] table = delta;
        byte[] classes = charClass;
        int w = width;
        int s = 0;
        int end = Math.min(limit, text.length());
        for (int i = 0; i < end; i++) {
            char c = text.charAt(i);
            int v;
            if (c < ASCII) {
                v = table[s + classes[c]];
            } else {
                char l = Character.toLowerCase(c);
                v = wideChars.get(l) ? encode(wideStep(s / w, l)) : 0;
            }
            if (v < 0) {
                s = -v - 1;
                emit(s / w, sink);
            } else {
                s = v;
            }
        }
        if (end == text.length()) {
            int v = table[s + classes['\n']];
            if (v < 0) {
                emit((-v - 1) / w, sink);
            }
        }
    }

    private void emit(int state, IntConsumer sink) {
        for (int k : out[state]) {
            sink.accept(k);
        }
    }
}
