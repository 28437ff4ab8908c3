package io.jobmon.logs.chunk;

import java.nio.charset.StandardCharsets;

/**
 * A decoded chunk, column by column: line {@code i} has {@code times[i]}, {@code offsets[i]}, {@code subs[i]},
 * {@code flags[i]} and its UTF-8 text at {@code text[starts[i] .. starts[i] + lengths[i])}. The text region holds the
 * lines in order, each followed by {@code '\n'}, so a search scans it in one pass. It holds either every line of the
 * chunk or, read from the newest end ({@link ChunkCodec#decodeNewest}), its last {@code size} lines: line {@code i}
 * here is line {@code first + i} of the chunk.
 */
public final class ChunkData {

    public final int size;
    /** How many older lines of the chunk are not held (0: all are). */
    public final int first;
    public final long[] times;
    public final long[] offsets;
    public final int[] subs;
    public final byte[] flags;
    public final int[] starts;
    public final int[] lengths;
    public final byte[] text;
    /** Where the text region begins and ends in {@link #text}. */
    public final int textFrom;
    public final int textTo;

    ChunkData(int size, int first, long[] times, long[] offsets, int[] subs, byte[] flags, int[] starts, int[] lengths,
            byte[] text, int textFrom, int textTo) {
        this.size = size;
        this.first = first;
        this.times = times;
        this.offsets = offsets;
        this.subs = subs;
        this.flags = flags;
        this.starts = starts;
        this.lengths = lengths;
        this.text = text;
        this.textFrom = textFrom;
        this.textTo = textTo;
    }

    public String line(int i) {
        return new String(text, starts[i], lengths[i], StandardCharsets.UTF_8);
    }

    public StoredLine stored(int i) {
        return new StoredLine(times[i], offsets[i], subs[i], flags[i], line(i));
    }

    /** The line whose text holds byte {@code pos} of {@link #text}. */
    public int lineAt(int pos) {
        int lo = 0;
        int hi = size - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (starts[mid] <= pos) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }
}
