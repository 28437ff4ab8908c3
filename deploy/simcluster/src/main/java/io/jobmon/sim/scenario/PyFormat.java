package io.jobmon.sim.scenario;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** How Python and its libraries print numbers and times, for log lines that look like theirs. */
public final class PyFormat {

    private static final DateTimeFormatter KLOG = DateTimeFormatter.ofPattern("MMdd HH:mm:ss.SSSSSS")
            .withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter LOGGING = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss,SSS")
            .withZone(ZoneOffset.UTC);

    private PyFormat() {
    }

    /** Python's {@code repr(float)}: shortest digits, {@code e-05} exponents below 1e-4 and from 1e16. */
    public static String repr(double v) {
        if (v == 0) {
            return "0.0";
        }
        BigDecimal d = new BigDecimal(Double.toString(v)).stripTrailingZeros();
        int exponent = d.precision() - d.scale() - 1;
        if (exponent < -4 || exponent >= 16) {
            String digits = d.unscaledValue().abs().toString();
            String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
            return (v < 0 ? "-" : "") + mantissa + "e" + (exponent < 0 ? "-" : "+")
                    + String.format(java.util.Locale.ROOT, "%02d", Math.abs(exponent));
        }
        String plain = d.toPlainString();
        return plain.contains(".") ? plain : plain + ".0";
    }

    /** {@code round(v, places)} then repr. */
    public static String round(double v, int places) {
        return repr(BigDecimal.valueOf(v).setScale(places, RoundingMode.HALF_EVEN).doubleValue());
    }

    /** tqdm's format_interval: {@code 1:02:03} or {@code 02:03}. */
    public static String interval(double seconds) {
        long t = (long) seconds;
        long h = t / 3600;
        long m = (t / 60) % 60;
        long s = t % 60;
        return h > 0 ? String.format(java.util.Locale.ROOT, "%d:%02d:%02d", h, m, s) : String.format(java.util.Locale.ROOT, "%02d:%02d", m, s);
    }

    /** A glog/klog-style line as torch's own logging prints it: {@code W0713 09:48:03.000000 88 file:line] msg}. */
    public static String klog(char level, Instant at, int pid, String where, String message) {
        return level + KLOG.format(at) + " " + pid + " " + where + "] " + message;
    }

    /**
     * c10's (PyTorch C++) log header time: {@code E804 22:41:17.000000393}, the date as month * 100 + day without
     * padding, nanoseconds in nine digits.
     */
    public static String c10(char severity, Instant at) {
        var t = at.atOffset(ZoneOffset.UTC);
        return severity + String.valueOf(t.getMonthValue() * 100 + t.getDayOfMonth())
                + String.format(java.util.Locale.ROOT, " %02d:%02d:%02d.%09d", t.getHour(), t.getMinute(), t.getSecond(), t.getNano());
    }

    /** Python logging's default time: {@code 2026-07-13 09:48:43,512}. */
    public static String loggingTime(Instant at) {
        return LOGGING.format(at);
    }

    /** {@code 96,512}. */
    public static String thousands(long n) {
        return String.format(java.util.Locale.ROOT, "%,d", n);
    }
}
