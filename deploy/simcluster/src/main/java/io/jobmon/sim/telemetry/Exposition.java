package io.jobmon.sim.telemetry;

import java.math.BigDecimal;

/** Prometheus text exposition format 0.0.4 details: Go's float text and label value escaping. */
public final class Exposition {

    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private Exposition() {
    }

    /** client_golang's expfmt: {@code strconv.FormatFloat(f, 'g', -1, 64)}, e.g. {@code 10870.69}, {@code 1.7e+09}. */
    public static String goFloat(double v) {
        if (Double.isNaN(v)) {
            return "NaN";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "+Inf" : "-Inf";
        }
        if (v == 0) {
            return "0";
        }
        BigDecimal d = new BigDecimal(Double.toString(Math.abs(v))).stripTrailingZeros();
        String digits = d.unscaledValue().toString();
        int exponent = d.precision() - d.scale() - 1;
        String sign = v < 0 ? "-" : "";
        // Go's %g with the shortest precision switches to %e below 1e-4 and from 1e6 (eprec = 6).
        if (exponent < -4 || exponent >= 6) {
            String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
            return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + String.format(java.util.Locale.ROOT, "%02d", Math.abs(exponent));
        }
        return sign + d.toPlainString();
    }

    /** A label value with \\, " and newlines escaped. */
    public static String escape(String v) {
        return v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
