package io.jobmon.metrics.query;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import io.jobmon.contracts.http.ApiJson;
import java.io.IOException;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;

/**
 * Writes a chart line's {@code [[time, value], ...]} as the API's mapper would ({@code time} as {@link ApiJson#TIME},
 * {@code value} a JSON number), without its per-point cost: formatting the instants and doubles was half of a
 * chart's CPU. Times in years 1–9999 and values of at most three decimals (what {@link ChartEngine#round} leaves)
 * take the fast path; anything else is written the usual way.
 */
public class PointsJson extends StdSerializer<List<Object[]>> {

    private static final long DAY_S = 86_400;

    public PointsJson() {
        super(List.class, false);
    }

    @Override
    public void serialize(List<Object[]> points, JsonGenerator gen, SerializerProvider provider) throws IOException {
        if (points instanceof LinePoints line) {
            char[] raw = raw(line);
            if (raw != null) {
                // the line's whole array at once, written from its arrays: no generator call per point
                gen.writeRawValue(raw, 0, raw.length);
                return;
            }
        }
        char[] buf = new char[24];
        char[] digits = new char[24];
        long day = Long.MIN_VALUE;
        gen.writeStartArray();
        for (Object[] p : points) {
            gen.writeStartArray();
            Instant t = (Instant) p[0];
            long d = Math.floorDiv(t.getEpochSecond(), DAY_S);
            if (!date(d, buf, day)) {
                gen.writeString(ApiJson.TIME.format(t));
            } else {
                day = d;
                time(Math.floorMod(t.getEpochSecond(), DAY_S), t.getNano() / 1_000_000, buf);
                gen.writeString(buf, 0, 24);
            }
            number(p[1], gen, digits);
            gen.writeEndArray();
        }
        gen.writeEndArray();
    }

    /**
     * The JSON of a line's points as the generator would write them, or null when a value is not finite or a time is
     * outside years 1–9999 (those are written point by point).
     */
    static char[] raw(LinePoints line) {
        char[] time = new char[24];
        char[] digits = new char[24];
        long day = Long.MIN_VALUE;
        StringBuilder out = new StringBuilder(2 + line.size() * 40);
        out.append('[');
        for (int i = 0; i < line.size(); i++) {
            long ms = line.time(i);
            double x = line.value(i);
            long s = Math.floorDiv(ms, 1000);
            long d = Math.floorDiv(s, DAY_S);
            if (!Double.isFinite(x) || !date(d, time, day)) {
                return null;
            }
            day = d;
            time(Math.floorMod(s, DAY_S), (int) Math.floorMod(ms, 1000), time);
            if (i > 0) {
                out.append(',');
            }
            out.append("[\"").append(time, 0, 24).append("\",");
            int at = thousandths(x, digits);
            if (at >= 0) {
                out.append(digits, at, digits.length - at);
            } else {
                out.append(Double.toString(x));
            }
            out.append(']');
        }
        out.append(']');
        char[] chars = new char[out.length()];
        out.getChars(0, chars.length, chars, 0);
        return chars;
    }

    /** {@code yyyy-MM-ddT} into buf[0..11), unless buf has that day already; false outside years 1–9999. */
    static boolean date(long epochDay, char[] buf, long inBuf) {
        if (epochDay == inBuf) {
            return true;
        }
        LocalDate date = LocalDate.ofEpochDay(epochDay);
        if (date.getYear() < 1 || date.getYear() > 9999) {
            return false;
        }
        digits(buf, 0, date.getYear(), 4);
        buf[4] = '-';
        digits(buf, 5, date.getMonthValue(), 2);
        buf[7] = '-';
        digits(buf, 8, date.getDayOfMonth(), 2);
        buf[10] = 'T';
        return true;
    }

    /** {@code HH:mm:ss.SSSZ} into buf[11..24). */
    static void time(long secondOfDay, int millis, char[] buf) {
        digits(buf, 11, (int) (secondOfDay / 3600), 2);
        buf[13] = ':';
        digits(buf, 14, (int) (secondOfDay / 60 % 60), 2);
        buf[16] = ':';
        digits(buf, 17, (int) (secondOfDay % 60), 2);
        buf[19] = '.';
        digits(buf, 20, millis, 3);
        buf[23] = 'Z';
    }

    private static void digits(char[] buf, int at, int value, int width) {
        for (int i = at + width - 1; i >= at; i--) {
            buf[i] = (char) ('0' + value % 10);
            value /= 10;
        }
    }

    /** A whole number as an integer, one of at most three decimals as its digits, any other the usual way. */
    static void number(Object value, JsonGenerator gen) throws IOException {
        number(value, gen, new char[24]);
    }

    /** The same, the digits written into {@code buf} (24 chars) and from there as they are: no string per value. */
    static void number(Object value, JsonGenerator gen, char[] buf) throws IOException {
        if (!(value instanceof Double d) || Double.isNaN(d) || Math.abs(d) >= 1e15) {
            gen.writeObject(value);
            return;
        }
        int at = thousandths(d, buf);
        if (at < 0) {
            gen.writeNumber((double) d);
        } else {
            gen.writeNumber(buf, at, buf.length - at);
        }
    }

    /**
     * A finite value below 1e15 of at most three decimals: its JSON digits at the end of {@code buf} (24 chars), as
     * the generator writes a whole number as a long; the index they start at, or -1 for any other value.
     */
    static int thousandths(double x, char[] buf) {
        if (Double.isNaN(x) || Math.abs(x) >= 1e15) {
            return -1;
        }
        long thousandths = Math.round(x * 1000);
        if (thousandths / 1000.0 != x) {
            return -1;
        }
        long whole = thousandths / 1000;
        int frac = (int) Math.abs(thousandths % 1000);
        int end = buf.length;
        if (frac != 0) {
            // the decimals without trailing zeros, backwards to the point
            int width = frac % 100 == 0 ? 1 : frac % 10 == 0 ? 2 : 3;
            int shown = width == 1 ? frac / 100 : width == 2 ? frac / 10 : frac;
            for (int i = 0; i < width; i++) {
                buf[--end] = (char) ('0' + shown % 10);
                shown /= 10;
            }
            buf[--end] = '.';
        }
        long w = Math.abs(whole);
        do {
            buf[--end] = (char) ('0' + w % 10);
            w /= 10;
        } while (w > 0);
        if (thousandths < 0) {
            buf[--end] = '-';
        }
        return end;
    }
}
