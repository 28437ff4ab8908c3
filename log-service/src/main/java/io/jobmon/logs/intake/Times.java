package io.jobmon.logs.intake;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/**
 * Times as shippers write them, to epoch nanoseconds: RFC 3339 / ISO 8601 strings with up to nine fraction digits
 * and {@code Z} or an offset (CRI, Vector, Fluent Bit {@code iso8601}), and epoch seconds as a number or numeric
 * string (Fluent Bit's default {@code double}). Formatter-free on the common form: this runs for every line.
 */
public final class Times {

    private Times() {
    }

    /** @return epoch nanoseconds, or {@link Long#MIN_VALUE} when {@code s} is no time of a known form */
    public static long parse(String s) {
        if (s == null || s.isEmpty()) {
            return Long.MIN_VALUE;
        }
        char c0 = s.charAt(0);
        if (s.length() >= 20 && s.charAt(4) == '-' && s.charAt(10) == 'T' || s.length() >= 20 && s.charAt(10) == ' ') {
            long fast = iso(s);
            if (fast != Long.MIN_VALUE) {
                return fast;
            }
            try {
                return nanos(OffsetDateTime.parse(s.replace(' ', 'T')).toInstant());
            } catch (DateTimeParseException e) {
                return Long.MIN_VALUE;
            }
        }
        if (c0 >= '0' && c0 <= '9') {
            try {
                return seconds(Double.parseDouble(s), s);
            } catch (NumberFormatException e) {
                return Long.MIN_VALUE;
            }
        }
        return Long.MIN_VALUE;
    }

    /** Epoch seconds with a fraction (Fluent Bit's double), kept to the microsecond the double carries. */
    public static long seconds(double value, String text) {
        if (text != null) {
            int dot = text.indexOf('.');
            if (dot > 0 && text.indexOf('e') < 0 && text.indexOf('E') < 0) {
                long secs = Long.parseLong(text.substring(0, dot));
                String frac = (text.substring(dot + 1) + "000000000").substring(0, 9);
                return secs * 1_000_000_000L + Long.parseLong(frac);
            }
        }
        long micros = Math.round(value * 1_000_000d);
        return micros * 1000L;
    }

    public static long nanos(Instant i) {
        return i.getEpochSecond() * 1_000_000_000L + i.getNano();
    }

    public static Instant instant(long nanos) {
        return Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L));
    }

    /** yyyy-MM-ddTHH:mm:ss[.f{1,9}](Z|±HH:MM|±HHMM) */
    private static long iso(String s) {
        try {
            int year = num(s, 0, 4);
            int month = num(s, 5, 7);
            int day = num(s, 8, 10);
            int hour = num(s, 11, 13);
            int minute = num(s, 14, 16);
            int second = num(s, 17, 19);
            if (s.charAt(7) != '-' || s.charAt(13) != ':' || s.charAt(16) != ':' || month < 1 || month > 12
                    || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) {
                return Long.MIN_VALUE;
            }
            int i = 19;
            long nano = 0;
            if (i < s.length() && (s.charAt(i) == '.' || s.charAt(i) == ',')) {
                i++;
                int digits = 0;
                while (i < s.length() && Character.isDigit(s.charAt(i))) {
                    if (digits < 9) {
                        nano = nano * 10 + (s.charAt(i) - '0');
                    }
                    digits++;
                    i++;
                }
                for (int d = Math.min(digits, 9); d < 9; d++) {
                    nano *= 10;
                }
            }
            int offsetSeconds;
            if (i == s.length() - 1 && (s.charAt(i) == 'Z' || s.charAt(i) == 'z')) {
                offsetSeconds = 0;
            } else if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
                int sign = s.charAt(i) == '-' ? -1 : 1;
                String off = s.substring(i + 1).replace(":", "");
                if (off.length() != 4) {
                    return Long.MIN_VALUE;
                }
                offsetSeconds = sign * (num(off, 0, 2) * 3600 + num(off, 2, 4) * 60);
            } else {
                return Long.MIN_VALUE;
            }
            long days = epochDay(year, month, day);
            long secs = days * 86400L + hour * 3600L + minute * 60L + second - offsetSeconds;
            return secs * 1_000_000_000L + nano;
        } catch (RuntimeException e) {
            return Long.MIN_VALUE;
        }
    }

    private static int num(String s, int from, int to) {
        int n = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                throw new NumberFormatException(s);
            }
            n = n * 10 + (c - '0');
        }
        return n;
    }

    /** Days since 1970-01-01 of a proleptic Gregorian date (as LocalDate.toEpochDay). */
    private static long epochDay(int year, int month, int day) {
        long y = year;
        long m = month;
        long total = 365 * y;
        if (y >= 0) {
            total += (y + 3) / 4 - (y + 99) / 100 + (y + 399) / 400;
        } else {
            total -= y / -4 - y / -100 + y / -400;
        }
        total += (367 * m - 362) / 12;
        total += day - 1;
        if (m > 2) {
            total--;
            boolean leap = (y % 4 == 0) && (y % 100 != 0 || y % 400 == 0);
            if (!leap) {
                total--;
            }
        }
        return total - 719528;
    }
}
