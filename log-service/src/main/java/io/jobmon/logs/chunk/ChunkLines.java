package io.jobmon.logs.chunk;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * The lines of one chunk in columns: times, Kafka positions, flags, and the UTF-8 texts end to end in one array. It is
 * what the intake buffers until a flush — a few large arrays per stream instead of objects per line, which the
 * garbage collector would copy from generation to generation until they are stored — and what
 * {@link ChunkCodec#encode(ChunkLines, int, int)} writes. Not thread-safe.
 */
public final class ChunkLines {

    private long[] times;
    private long[] offsets;
    private int[] subs;
    private byte[] flags;
    private int[] ends;
    private byte[] text;
    private int size;
    private int textSize;

    public ChunkLines() {
        this(64, 8192);
    }

    private ChunkLines(int lines, int bytes) {
        times = new long[lines];
        offsets = new long[lines];
        subs = new int[lines];
        flags = new byte[lines];
        ends = new int[lines];
        text = new byte[bytes];
    }

    public static ChunkLines of(List<StoredLine> lines) {
        ChunkLines c = new ChunkLines(Math.max(1, lines.size()), 8192);
        for (StoredLine l : lines) {
            c.add(l.time(), l.offset(), l.sub(), l.flags(), l.text().getBytes(StandardCharsets.UTF_8));
        }
        return c;
    }

    public void add(long time, long offset, int sub, int flag, byte[] utf8) {
        add(time, offset, sub, flag, utf8, 0, utf8.length);
    }

    /** A line whose UTF-8 text is {@code src[from, from + length)}. */
    public void add(long time, long offset, int sub, int flag, byte[] src, int from, int length) {
        if (size == times.length) {
            int n = size * 2;
            times = Arrays.copyOf(times, n);
            offsets = Arrays.copyOf(offsets, n);
            subs = Arrays.copyOf(subs, n);
            flags = Arrays.copyOf(flags, n);
            ends = Arrays.copyOf(ends, n);
        }
        if (textSize + length > text.length) {
            text = Arrays.copyOf(text, Math.max(text.length * 2, textSize + length));
        }
        System.arraycopy(src, from, text, textSize, length);
        textSize += length;
        times[size] = time;
        offsets[size] = offset;
        subs[size] = sub;
        flags[size] = (byte) flag;
        ends[size] = textSize;
        size++;
    }

    public int size() {
        return size;
    }

    public long time(int i) {
        return times[i];
    }

    public long offset(int i) {
        return offsets[i];
    }

    public int sub(int i) {
        return subs[i];
    }

    public int flags(int i) {
        return flags[i];
    }

    /** The texts end to end: line {@code i} is {@link #length(int)} bytes at {@link #start(int)}. */
    public byte[] text() {
        return text;
    }

    public int start(int i) {
        return i == 0 ? 0 : ends[i - 1];
    }

    public int length(int i) {
        return ends[i] - start(i);
    }

    /** Bytes of text of all the lines. */
    public long textBytes() {
        return textSize;
    }

    /** How many lines carry {@code flag}. */
    public int count(int flag) {
        int n = 0;
        for (int i = 0; i < size; i++) {
            n += (flags[i] & flag) != 0 ? 1 : 0;
        }
        return n;
    }

    public StoredLine line(int i) {
        return new StoredLine(times[i], offsets[i], subs[i], flags[i],
                new String(text, start(i), length(i), StandardCharsets.UTF_8));
    }

    /** Chunk order ({@link StoredLine#compare}): time, then Kafka position. */
    private int compare(int a, int b) {
        int c = Long.compare(times[a], times[b]);
        if (c != 0) {
            return c;
        }
        c = Long.compare(offsets[a], offsets[b]);
        return c != 0 ? c : Integer.compare(subs[a], subs[b]);
    }

    /** These lines in chunk order: this when they are in it already, as a stream's lines from one partition usually are. */
    public ChunkLines sorted() {
        int i = 1;
        while (i < size && compare(i - 1, i) <= 0) {
            i++;
        }
        if (i >= size) {
            return this;
        }
        Integer[] order = new Integer[size];
        for (int k = 0; k < size; k++) {
            order[k] = k;
        }
        Arrays.sort(order, this::compare);
        ChunkLines out = new ChunkLines(size, textSize);
        for (int k : order) {
            out.add(times[k], offsets[k], subs[k], flags[k], text, start(k), length(k));
        }
        return out;
    }

    /** The lines at Kafka offsets from {@code offset} on, in the same order (a replay's lines not stored yet). */
    public ChunkLines from(long offset) {
        ChunkLines out = new ChunkLines(Math.max(1, size), Math.max(1, textSize));
        for (int k = 0; k < size; k++) {
            if (offsets[k] >= offset) {
                out.add(times[k], offsets[k], subs[k], flags[k], text, start(k), length(k));
            }
        }
        return out;
    }
}
