package io.jobmon.logs.chunk;

/**
 * A line as a chunk keeps it: epoch nanoseconds, its Kafka position (the chunk's partition, this offset, and its index
 * {@code sub} among the lines of that record), {@link #STDERR}/{@link #MASKED}/{@link #CUT} flags, the text.
 */
public record StoredLine(long time, long offset, int sub, int flags, String text) {

    public static final int STDERR = 1;
    public static final int MASKED = 2;
    public static final int CUT = 4;

    /** Chunk order: time, then Kafka position. */
    public static int compare(StoredLine a, StoredLine b) {
        int c = Long.compare(a.time, b.time);
        if (c != 0) {
            return c;
        }
        c = Long.compare(a.offset, b.offset);
        return c != 0 ? c : Integer.compare(a.sub, b.sub);
    }
}
