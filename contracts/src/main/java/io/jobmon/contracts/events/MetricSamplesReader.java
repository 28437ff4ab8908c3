package io.jobmon.contracts.events;

import io.jobmon.contracts.bytes.ByteReader;
import io.jobmon.contracts.bytes.MalformedBytesException;

/**
 * The reads of a binary metric-samples record ({@link MetricSamplesBinary}) over a {@link ByteReader}, failing with
 * the record's fault for the dead-letter queue, never an index exception. What is read is named by a constant and
 * the series being read ({@link #series}): a message is built only for a broken record.
 */
final class MetricSamplesReader {

    private final ByteReader in;
    /** The series being read, -1 before the first. */
    int series = -1;

    MetricSamplesReader(byte[] value, int from) {
        this.in = new ByteReader(value, from, value.length);
    }

    int remaining() {
        return in.remaining();
    }

    private InvalidRecordException broken(MalformedBytesException e, String what) {
        return new InvalidRecordException("binary metric-samples record " + e.getMessage() + " in " + what + where());
    }

    void need(long bytes, String what) {
        if (bytes > in.remaining()) {
            throw new InvalidRecordException("binary metric-samples record truncated: " + what + where() + " need "
                    + bytes + " bytes at byte " + in.position() + ", " + in.remaining() + " left");
        }
    }

    int varint(String what) {
        long v;
        try {
            v = in.varint();
        } catch (MalformedBytesException e) {
            throw broken(e, what);
        }
        if (v < 0 || v > Integer.MAX_VALUE) {
            throw new InvalidRecordException("binary metric-samples record has " + what + where() + " " + v
                    + " out of range at byte " + in.position());
        }
        return (int) v;
    }

    /** A count of items each at least {@code minBytes} long: never more than the bytes left can hold. */
    int count(String what, int minBytes) {
        int n = varint(what);
        need((long) n * minBytes, n + " " + what);
        return n;
    }

    /** A UTF-8 string of {@code length} bytes (already checked by {@link #count}). */
    String utf8(int length, MetricSamplesBinary.Strings source) {
        String s = source.get(in.array(), in.position(), length);
        in.skip(length);
        return s;
    }

    long zigzag() {
        try {
            return in.zigzag();
        } catch (MalformedBytesException e) {
            throw broken(e, "times");
        }
    }

    /** A value's bits (their room already checked by {@link #need}). */
    long fixed64() {
        return in.fixed64();
    }

    String string(String[] strings, int i, String what) {
        if (i >= strings.length) {
            throw new InvalidRecordException("binary metric-samples record: " + what + where() + " names string "
                    + i + " of " + strings.length);
        }
        return strings[i];
    }

    private String where() {
        return series < 0 ? "" : " of series[" + series + "]";
    }
}
