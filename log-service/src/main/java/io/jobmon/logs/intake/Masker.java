package io.jobmon.logs.intake;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Masks secrets in a line before it is stored. A private key printed over several lines (one record per line) is
 * masked from its BEGIN line to its END line: the caller keeps a {@link BlockState} per stream.
 */
public final class Masker {

    private static final Pattern BEGIN = Pattern.compile("-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----");
    private static final Pattern END = Pattern.compile("-----END [A-Z0-9 ]*PRIVATE KEY-----");
    /** A block longer than this many lines is not a key: masking stops there. */
    private static final int MAX_BLOCK_LINES = 200;

    /** Whether a stream is inside a private key block. */
    public static final class BlockState {
        int linesInBlock = -1;
    }

    /** Lowercase text of a BEGIN line: a block may start on this line. */
    private static final String KEY_BLOCK = "private key-----";

    private final List<MaskingRules.Rule> rules;
    private final String replacement;
    /** The rules' hints and, last, {@link #KEY_BLOCK}: found in one pass over a line. */
    private final HintScan hints;

    public Masker(List<MaskingRules.Rule> rules, String replacement) {
        this.rules = rules;
        this.replacement = replacement;
        List<List<String>> all = new ArrayList<>();
        rules.forEach(r -> all.add(r.hints()));
        all.add(List.of(KEY_BLOCK));
        this.hints = new HintScan(all);
    }

    /**
     * Whether {@link #mask} would leave the text {@code utf8[from, to)} (well-formed UTF-8) as it is, outside a
     * private key block: no rule's hint, and no key block's, is in it. Answered without decoding the text; when
     * false, mask its string.
     */
    public boolean clean(byte[] utf8, int from, int to) {
        return hints.scan(utf8, from, to) == 0;
    }

    /** @return the masked line, the same instance when nothing was masked */
    public String mask(String line, BlockState state) {
        if (state != null && state.linesInBlock >= 0) {
            Matcher end = END.matcher(line);
            if (end.find()) {
                state.linesInBlock = -1;
                return replacement + line.substring(end.start());
            }
            if (++state.linesInBlock > MAX_BLOCK_LINES) {
                state.linesInBlock = -1;
                return line;
            }
            return replacement;
        }
        long found = hints.scan(line);
        String out = line;
        for (int r = 0; r < rules.size(); r++) {
            if (!hints.runs(found, r, out)) {
                continue;
            }
            String masked = apply(rules.get(r).pattern(), out);
            if (masked != out) {
                out = masked;
                found = hints.scan(out); // the rules after this one look at the masked line
            }
        }
        if (state != null && hints.runs(found, rules.size(), out)) {
            Matcher begin = BEGIN.matcher(line);
            if (begin.find() && !END.matcher(line).find(begin.end())) {
                state.linesInBlock = 0;
            }
        }
        return out;
    }

    private String apply(Pattern p, String line) {
        Matcher m = p.matcher(line);
        if (!m.find()) {
            return line;
        }
        StringBuilder sb = new StringBuilder(line.length());
        int last = 0;
        boolean named = p.pattern().contains("(?<secret>");
        do {
            int start = named ? m.start("secret") : m.start();
            int end = named ? m.end("secret") : m.end();
            if (start < 0 || line.startsWith(replacement, start) && end - start == replacement.length()) {
                continue;
            }
            sb.append(line, last, start).append(replacement);
            last = end;
        } while (m.find());
        if (last == 0) {
            return line;
        }
        return sb.append(line, last, line.length()).toString();
    }
}
