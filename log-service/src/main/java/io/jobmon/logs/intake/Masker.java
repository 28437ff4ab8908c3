package io.jobmon.logs.intake;

import java.util.List;
import java.util.Locale;
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

    private final List<MaskingRules.Rule> rules;
    private final String replacement;

    public Masker(List<MaskingRules.Rule> rules, String replacement) {
        this.rules = rules;
        this.replacement = replacement;
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
        String lower = line.toLowerCase(Locale.ROOT);
        String out = line;
        for (MaskingRules.Rule rule : rules) {
            if (!hinted(lower, rule.hints())) {
                continue;
            }
            String masked = apply(rule.pattern(), out);
            if (masked != out) {
                out = masked;
                lower = out.toLowerCase(Locale.ROOT);
            }
        }
        if (state != null && lower.contains("private key-----")) {
            Matcher begin = BEGIN.matcher(line);
            if (begin.find() && !END.matcher(line).find(begin.end())) {
                state.linesInBlock = 0;
            }
        }
        return out;
    }

    private static boolean hinted(String lower, List<String> hints) {
        if (hints.isEmpty()) {
            return true;
        }
        for (String h : hints) {
            if (lower.contains(h)) {
                return true;
            }
        }
        return false;
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
