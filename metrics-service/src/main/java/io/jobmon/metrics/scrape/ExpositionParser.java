package io.jobmon.metrics.scrape;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Prometheus text exposition format 0.0.4 and its OpenMetrics 1.0 variant, after prometheus/prometheus
 * {@code model/textparse} (promlex.l, openmetricslex.l): {@code # HELP}/{@code # TYPE} (and OpenMetrics'
 * {@code # UNIT}, {@code # EOF}), comments, samples {@code name{label="value",...} value [timestamp]} with
 * escaped label values ({@code \\ \" \n}), quoted UTF-8 names inside the braces, Go float syntax for values
 * ({@code NaN}, {@code +Inf}, {@code -Inf}), timestamps in milliseconds (text) or seconds (OpenMetrics) and
 * OpenMetrics exemplars (skipped). A malformed line fails the whole scrape, as Prometheus does.
 */
public final class ExpositionParser {

    /** One sample as exposed; {@code timestampMs} null when the exporter gave none. */
    public record Sample(String name, Map<String, String> labels, double value, Long timestampMs) {
    }

    /** The samples and the declared type of each metric family ({@code counter}, {@code gauge}, ...). */
    public record Result(List<Sample> samples, Map<String, String> types) {
    }

    /** A line that is not in the format, with its number. */
    public static final class ParseException extends RuntimeException {
        public ParseException(int line, String message) {
            super("line " + line + ": " + message);
        }
    }

    private final String text;
    private final boolean openMetrics;
    private int pos;
    private int line = 1;

    private ExpositionParser(String text, boolean openMetrics) {
        this.text = text;
        this.openMetrics = openMetrics;
    }

    /** @param openMetrics the body came as {@code application/openmetrics-text} */
    public static Result parse(String text, boolean openMetrics) {
        return new ExpositionParser(text, openMetrics).run();
    }

    private Result run() {
        List<Sample> samples = new ArrayList<>();
        Map<String, String> types = new HashMap<>();
        boolean eof = false;
        while (pos < text.length()) {
            if (eof) {
                throw error("content after # EOF");
            }
            int end = text.indexOf('\n', pos);
            if (end < 0) {
                end = text.length();
            }
            String l = text.substring(pos, end);
            if (l.endsWith("\r")) {
                l = l.substring(0, l.length() - 1);
            }
            if (l.isBlank()) {
                if (openMetrics && !l.isEmpty()) {
                    throw error("blank line");
                }
            } else if (l.charAt(0) == '#') {
                eof = comment(l, types);
            } else {
                samples.add(sample(l));
            }
            pos = end + 1;
            line++;
        }
        if (openMetrics && !eof) {
            throw error("OpenMetrics exposition without # EOF");
        }
        return new Result(samples, types);
    }

    private ParseException error(String message) {
        return new ParseException(line, message);
    }

    /** @return true on {@code # EOF} */
    private boolean comment(String l, Map<String, String> types) {
        String[] parts = l.substring(1).trim().split("[ \t]+", 3);
        if (openMetrics && l.equals("# EOF")) {
            return true;
        }
        if (parts.length >= 2 && parts[0].equals("TYPE")) {
            String name = unquoteName(parts[1]);
            String type = parts.length == 3 ? parts[2].trim() : "";
            if (!List.of("counter", "gauge", "histogram", "summary", "untyped", "unknown", "info", "stateset",
                    "gaugehistogram").contains(type)) {
                throw error("invalid metric type \"" + type + "\"");
            }
            types.put(name, type);
        } else if (openMetrics && parts.length >= 1 && !List.of("HELP", "TYPE", "UNIT").contains(parts[0])) {
            throw error("OpenMetrics allows only # HELP, # TYPE, # UNIT and # EOF comments");
        }
        return false;
    }

    private static String unquoteName(String s) {
        return s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"") ? s.substring(1, s.length() - 1) : s;
    }

    private Sample sample(String l) {
        int i = 0;
        int n = l.length();
        String name = null;
        if (l.charAt(0) != '{') {
            int start = i;
            while (i < n && isNameChar(l.charAt(i), i == start)) {
                i++;
            }
            if (i == start) {
                throw error("expected a metric name, got \"" + l.charAt(0) + "\"");
            }
            name = l.substring(start, i);
        }
        Map<String, String> labels = new LinkedHashMap<>();
        if (i < n && l.charAt(i) == '{') {
            i++;
            while (true) {
                i = skipSpaces(l, i);
                if (i >= n) {
                    throw error("unterminated label set");
                }
                if (l.charAt(i) == '}') {
                    i++;
                    break;
                }
                String key;
                if (l.charAt(i) == '"') {
                    int[] end = new int[1];
                    key = quoted(l, i, end);
                    i = skipSpaces(l, end[0]);
                    if (i < n && (l.charAt(i) == ',' || l.charAt(i) == '}')) {
                        if (name != null) {
                            throw error("metric name already set");
                        }
                        name = key; // a quoted metric name inside the braces
                        if (l.charAt(i) == ',') {
                            i++;
                        }
                        continue;
                    }
                } else {
                    int start = i;
                    while (i < n && isLabelChar(l.charAt(i), i == start)) {
                        i++;
                    }
                    if (i == start) {
                        throw error("expected a label name");
                    }
                    key = l.substring(start, i);
                    i = skipSpaces(l, i);
                }
                if (i >= n || l.charAt(i) != '=') {
                    throw error("expected '=' after label " + key);
                }
                i = skipSpaces(l, i + 1);
                if (i >= n || l.charAt(i) != '"') {
                    throw error("expected a quoted value for label " + key);
                }
                int[] end = new int[1];
                String value = quoted(l, i, end);
                if (labels.put(key, value) != null) {
                    throw error("duplicate label " + key);
                }
                i = skipSpaces(l, end[0]);
                if (i < n && l.charAt(i) == ',') {
                    i++;
                } else if (i < n && l.charAt(i) != '}') {
                    throw error("expected ',' or '}' after label " + key);
                }
            }
        }
        if (name == null) {
            throw error("metric name not set");
        }
        if (i >= n || (l.charAt(i) != ' ' && l.charAt(i) != '\t')) {
            throw error("expected a value after " + name);
        }
        String rest = l.substring(i).trim();
        if (openMetrics) {
            int ex = rest.indexOf(" # ");
            if (ex >= 0) {
                rest = rest.substring(0, ex).trim(); // an exemplar
            }
        }
        String[] fields = rest.split("[ \t]+");
        if (fields.length > 2 || fields[0].isEmpty()) {
            throw error("expected value and optional timestamp, got \"" + rest + "\"");
        }
        double value = parseFloat(fields[0]);
        Long ts = null;
        if (fields.length == 2) {
            try {
                ts = openMetrics ? Math.round(Double.parseDouble(fields[1]) * 1000)
                        : Long.parseLong(fields[1]);
            } catch (NumberFormatException e) {
                throw error("invalid timestamp \"" + fields[1] + "\"");
            }
        }
        return new Sample(name, labels, value, ts);
    }

    private String quoted(String l, int start, int[] end) {
        StringBuilder b = new StringBuilder();
        int i = start + 1;
        while (i < l.length()) {
            char c = l.charAt(i);
            if (c == '"') {
                end[0] = i + 1;
                return b.toString();
            }
            if (c == '\\' && i + 1 < l.length()) {
                char e = l.charAt(i + 1);
                b.append(e == 'n' ? '\n' : e);
                i += 2;
                continue;
            }
            b.append(c);
            i++;
        }
        throw error("unterminated quoted string");
    }

    private static int skipSpaces(String l, int i) {
        while (i < l.length() && (l.charAt(i) == ' ' || l.charAt(i) == '\t')) {
            i++;
        }
        return i;
    }

    private static boolean isNameChar(char c, boolean first) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == ':' || !first && c >= '0' && c <= '9';
    }

    private static boolean isLabelChar(char c, boolean first) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || !first && c >= '0' && c <= '9';
    }

    /** Go's float syntax as Prometheus takes it: NaN, Inf, +Inf, -Inf (any case), no hex, no underscores. */
    double parseFloat(String s) {
        String lower = s.toLowerCase();
        switch (lower) {
            case "nan":
                return Double.NaN;
            case "inf":
            case "+inf":
            case "infinity":
            case "+infinity":
                return Double.POSITIVE_INFINITY;
            case "-inf":
            case "-infinity":
                return Double.NEGATIVE_INFINITY;
            default:
                break;
        }
        if (lower.indexOf('p') >= 0 || lower.indexOf('_') >= 0 || lower.startsWith("0x") || lower.endsWith("d")
                || lower.endsWith("f")) {
            throw error("invalid value \"" + s + "\"");
        }
        try {
            return Double.parseDouble(s);
        } catch (NumberFormatException e) {
            throw error("invalid value \"" + s + "\"");
        }
    }
}
