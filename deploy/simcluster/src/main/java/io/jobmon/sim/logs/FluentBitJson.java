package io.jobmon.sim.logs;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Map;

/**
 * JSON as Fluent Bit's msgpack-to-JSON writes it (src/flb_pack.c, flb_utils_write_str): compact, keys in record
 * order, no escaping of /, with the short escapes for \" \\ \n \r \t \b \f, <code>&#92;u00XX</code> for other control
 * characters and DEL, and every non-ASCII character as a lower-case <code>&#92;uXXXX</code> (surrogate pairs above U+FFFF),
 * since {@code json.escape_unicode} is on by default; doubles as C's {@code %.16g} ({@code %.1f} when integral).
 */
public final class FluentBitJson {

    private final StringBuilder out = new StringBuilder(512);
    private boolean first = true;

    public FluentBitJson() {
        out.append('{');
    }

    public FluentBitJson field(String key, String value) {
        key(key);
        string(value);
        return this;
    }

    /** A double field (Fluent Bit's {@code @timestamp} with {@code timestamp_format double}). */
    public FluentBitJson number(String key, double value) {
        key(key);
        out.append(double16g(value));
        return this;
    }

    public FluentBitJson map(String key, Map<String, String> values) {
        key(key);
        out.append('{');
        boolean f = true;
        for (Map.Entry<String, String> e : values.entrySet()) {
            if (!f) {
                out.append(',');
            }
            f = false;
            string(e.getKey());
            out.append(':');
            string(e.getValue());
        }
        out.append('}');
        return this;
    }

    /** A nested object written by {@code body}. */
    public FluentBitJson object(String key, FluentBitJson body) {
        key(key);
        out.append(body.toString());
        return this;
    }

    private void key(String k) {
        if (!first) {
            out.append(',');
        }
        first = false;
        string(k);
        out.append(':');
    }

    private void string(String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20 || c >= 0x7f) {
                        out.append(String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    /** C's {@code %.16g}, or {@code %.1f} for an integral value, as flb_pack.c prints doubles. */
    static String double16g(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return String.format(java.util.Locale.ROOT, "%.1f", v);
        }
        BigDecimal d = new BigDecimal(v).round(new MathContext(16)).stripTrailingZeros();
        int exponent = d.precision() - d.scale() - 1;
        if (exponent < -4 || exponent >= 16) {
            String digits = d.unscaledValue().abs().toString();
            String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
            return (v < 0 ? "-" : "") + mantissa + "e" + (exponent < 0 ? "-" : "+") + String.format(java.util.Locale.ROOT, "%02d", Math.abs(exponent));
        }
        return d.toPlainString();
    }

    @Override
    public String toString() {
        return out + "}";
    }
}
