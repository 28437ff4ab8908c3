package io.jobmon.logs.query;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import io.jobmon.contracts.i18n.Text;
import io.jobmon.contracts.problem.ApiException;
import io.jobmon.logs.chunk.ChunkData;
import io.jobmon.logs.chunk.TrigramFilter;
import java.nio.charset.StandardCharsets;
import java.util.function.IntConsumer;

/**
 * Which lines a search keeps: a keyword ({@code q}, case-sensitive or not) and/or a regex (RE2/J: linear in the text,
 * no backtracking), both under a deadline — a search that runs past it is a problem answer, never a stuck thread.
 */
public final class LineMatcher {

    /** A search that ran past its deadline: answered 422 with a problem naming the way out. */
    public static ApiException tooSlow(long deadlineMillis) {
        return ApiException.of(422, "search-timeout", Text.of("logs.search-timeout", deadlineMillis));
    }

    private final String keyword;
    private final byte[] keywordBytes;
    private final String keywordLatin1;
    private final boolean ignoreCase;
    private final Pattern regex;
    private final long deadline;
    private final long deadlineMillis;
    private final int[] hashes;

    private LineMatcher(String keyword, boolean ignoreCase, Pattern regex, long deadlineMillis) {
        this.keyword = keyword;
        this.ignoreCase = ignoreCase;
        byte[] k = keyword == null ? null : keyword.getBytes(StandardCharsets.UTF_8);
        this.keywordBytes = k == null ? null : ignoreCase ? lowerAscii(k, 0, k.length) : k;
        this.keywordLatin1 = k == null ? null : new String(keywordBytes, StandardCharsets.ISO_8859_1);
        this.regex = regex;
        this.deadlineMillis = deadlineMillis;
        this.deadline = System.nanoTime() + deadlineMillis * 1_000_000L;
        this.hashes = keyword == null ? new int[0] : TrigramFilter.hashes(keyword, ignoreCase);
    }

    /** @return null when neither a keyword nor a regex is given */
    public static LineMatcher of(String q, boolean ignoreCase, String regex, int maxRegexLength, long deadlineMillis) {
        String keyword = q == null || q.isEmpty() ? null : q;
        Pattern p = null;
        if (regex != null && !regex.isEmpty()) {
            if (regex.length() > maxRegexLength) {
                throw ApiException.invalid("regex", "field.max-length", maxRegexLength);
            }
            try {
                p = Pattern.compile(regex, ignoreCase ? Pattern.CASE_INSENSITIVE : 0);
            } catch (PatternSyntaxException | IllegalArgumentException e) {
                throw ApiException.invalid("regex", "logs.regex", e.getMessage());
            }
        }
        return keyword == null && p == null ? null : new LineMatcher(keyword, ignoreCase, p, deadlineMillis);
    }

    /** The trigram hashes a chunk must have (the keyword's; a regex alone cannot skip chunks). */
    public int[] hashes() {
        return hashes;
    }

    public void checkDeadline() {
        if (System.nanoTime() - deadline > 0) {
            throw tooSlow(deadlineMillis);
        }
    }

    /** Marks the lines of a chunk that match (a page's search; a count uses {@link #countIn}). */
    public boolean[] matches(ChunkData d) {
        boolean[] out = new boolean[d.size];
        scan(d.text, d.textFrom, d.lengths, d.size, i -> out[i] = true);
        return out;
    }

    /**
     * How many of the lines {@code lengths[0..n)}, their texts at {@code b[from..]} each followed by {@code '\n'}, match
     * (a {@link io.jobmon.logs.chunk.ChunkCodec.TextCounter}).
     */
    public long countIn(byte[] b, int from, int[] lengths, int n) {
        long[] count = {0};
        scan(b, from, lengths, n, i -> count[0]++);
        return count[0];
    }

    /**
     * Calls {@code hit} with each matching line of {@code lengths[0..n)}, their texts at {@code b[from..]} each followed
     * by {@code '\n'}: the keyword is searched over the lines at once (an intrinsic byte search) and the line of each
     * match found by walking the lengths; the regex is checked on each candidate line (every line without a keyword).
     */
    private void scan(byte[] b, int from, int[] lengths, int n, IntConsumer hit) {
        if (keyword == null) {
            for (int i = 0, at = from; i < n; at += lengths[i] + 1, i++) {
                if (regex.matcher(new String(b, at, lengths[i], StandardCharsets.UTF_8)).find()) {
                    hit.accept(i);
                }
                if ((i & 255) == 255) {
                    checkDeadline();
                }
            }
            checkDeadline();
            return;
        }
        int size = n;
        for (int i = 0; i < n; i++) {
            size += lengths[i];
        }
        String region = ignoreCase ? new String(lowerAscii(b, from, size), StandardCharsets.ISO_8859_1)
                : new String(b, from, size, StandardCharsets.ISO_8859_1);
        int line = 0;
        int start = 0; // of the line, in the region
        int at = region.indexOf(keywordLatin1);
        while (at >= 0) {
            while (at > start + lengths[line]) {
                start += lengths[line] + 1;
                line++;
            }
            if (regex == null || regex.matcher(new String(b, from + start, lengths[line], StandardCharsets.UTF_8)).find()) {
                hit.accept(line);
            }
            start += lengths[line] + 1;
            line++;
            at = line < n ? region.indexOf(keywordLatin1, start) : -1;
        }
        checkDeadline();
    }

    /** ASCII letters lowercased (keyword case-insensitivity covers ASCII; a regex with ignoreCase covers Unicode). */
    static byte[] lowerAscii(byte[] b, int off, int len) {
        byte[] out = new byte[len];
        for (int i = 0; i < len; i++) {
            byte c = b[off + i];
            out[i] = c >= 'A' && c <= 'Z' ? (byte) (c + 32) : c;
        }
        return out;
    }

    /** Whether one line (a follow's) matches. */
    public boolean matches(String line) {
        if (keyword != null) {
            byte[] b = line.getBytes(StandardCharsets.UTF_8);
            String l = new String(ignoreCase ? lowerAscii(b, 0, b.length) : b, StandardCharsets.ISO_8859_1);
            if (!l.contains(keywordLatin1)) {
                return false;
            }
        }
        return regex == null || regex.matcher(line).find();
    }
}
