package io.jobmon.logs.intake;

import io.jobmon.logs.chunk.StreamKey;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * One line as a shipper's record carried it, before masking: its stream, time, stdout/stderr and text. The text is a
 * string, or — on the intake's fast path ({@link ContainerRecords}) — the UTF-8 bytes of the record itself
 * ({@code utf8[from, to)}, valid UTF-8, nothing to unescape), so that a line needing no masking or cut goes to its
 * chunk without ever becoming a string. Equal when stream, time, stream type and text are.
 */
public final class ShipperLine {

    private final StreamKey stream;
    private final long timeNanos;
    private final boolean stderr;
    private final String text;
    private final byte[] utf8;
    private final int from;
    private final int to;
    private final PodIdentity identity;

    public ShipperLine(StreamKey stream, long timeNanos, boolean stderr, String text) {
        this(stream, timeNanos, stderr, Objects.requireNonNull(text), null, 0, 0, null);
    }

    /** A container's line with what its record says of the pod's UID and container id (may be null). */
    public ShipperLine(StreamKey stream, long timeNanos, boolean stderr, String text, PodIdentity identity) {
        this(stream, timeNanos, stderr, Objects.requireNonNull(text), null, 0, 0, identity);
    }

    /** A line whose text is {@code utf8[from, to)}: valid UTF-8 (the caller checked). */
    ShipperLine(StreamKey stream, long timeNanos, boolean stderr, byte[] utf8, int from, int to, PodIdentity identity) {
        this(stream, timeNanos, stderr, null, utf8, from, to, identity);
    }

    private ShipperLine(StreamKey stream, long timeNanos, boolean stderr, String text, byte[] utf8, int from, int to,
            PodIdentity identity) {
        this.stream = stream;
        this.timeNanos = timeNanos;
        this.stderr = stderr;
        this.text = text;
        this.utf8 = utf8;
        this.from = from;
        this.to = to;
        this.identity = identity;
    }

    /** The pod's UID and container id as the record gave them; null when it gave neither (not part of equality). */
    public PodIdentity identity() {
        return identity;
    }

    public StreamKey stream() {
        return stream;
    }

    public long timeNanos() {
        return timeNanos;
    }

    public boolean stderr() {
        return stderr;
    }

    public String text() {
        return text != null ? text : new String(utf8, from, to - from, StandardCharsets.UTF_8);
    }

    /** Whether the text is held as UTF-8 bytes ({@link #utf8()}, {@link #from()}, {@link #to()}). */
    boolean bytes() {
        return text == null;
    }

    byte[] utf8() {
        return utf8;
    }

    int from() {
        return from;
    }

    int to() {
        return to;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ShipperLine l && l.timeNanos == timeNanos && l.stderr == stderr && l.stream.equals(stream)
                && (bytes() && l.bytes() ? Arrays.equals(utf8, from, to, l.utf8, l.from, l.to) : text().equals(l.text()));
    }

    @Override
    public int hashCode() {
        return Objects.hash(stream, timeNanos, stderr, text());
    }

    @Override
    public String toString() {
        return "ShipperLine[" + stream + ", " + timeNanos + ", " + (stderr ? "stderr" : "stdout") + ", " + text() + "]";
    }
}
