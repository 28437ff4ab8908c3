package io.jobmon.logs.chunk;

import com.github.luben.zstd.Zstd;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The chunk body format, version 1, zstd-compressed as one frame: a header (version, line count, base time and base
 * offset), then columns — time deltas (zigzag varints), offset deltas (zigzag varints), record sub-indexes, flags,
 * text lengths (varints) — then the texts, each followed by {@code '\n'}. Lines are in chunk order
 * ({@link StoredLine#compare}).
 */
public final class ChunkCodec {

    public static final int VERSION = 1;

    private ChunkCodec() {
    }

    /** An encoded chunk: the compressed body, its keyword filter and what the index row records. */
    public record Encoded(byte[] body, byte[] filter, int lines, long rawBytes, long minTime, long maxTime,
            long minOffset, long maxOffset) {
    }

    /** @param lines in chunk order, at least one */
    public static Encoded encode(List<StoredLine> lines, int zstdLevel, int filterBits) {
        int n = lines.size();
        byte[][] texts = new byte[n][];
        long raw = 0;
        for (int i = 0; i < n; i++) {
            texts[i] = lines.get(i).text().getBytes(StandardCharsets.UTF_8);
            raw += texts[i].length;
        }
        Buf out = new Buf((int) Math.min(Integer.MAX_VALUE - 64, raw + n * 8L + 32));
        out.varint(VERSION);
        out.varint(n);
        long baseTime = lines.get(0).time();
        long minOffset = Long.MAX_VALUE;
        long maxOffset = Long.MIN_VALUE;
        for (StoredLine l : lines) {
            minOffset = Math.min(minOffset, l.offset());
            maxOffset = Math.max(maxOffset, l.offset());
        }
        out.fixed64(baseTime);
        out.fixed64(minOffset);
        long prev = baseTime;
        for (StoredLine l : lines) {
            out.zigzag(l.time() - prev);
            prev = l.time();
        }
        prev = minOffset;
        for (StoredLine l : lines) {
            out.zigzag(l.offset() - prev);
            prev = l.offset();
        }
        for (StoredLine l : lines) {
            out.varint(l.sub());
        }
        for (StoredLine l : lines) {
            out.write(l.flags());
        }
        for (byte[] t : texts) {
            out.varint(t.length);
        }
        TrigramFilter filter = new TrigramFilter(filterBits);
        for (byte[] t : texts) {
            filter.add(t, 0, t.length);
            out.write(t, 0, t.length);
            out.write('\n');
        }
        byte[] body = Zstd.compress(out.toByteArray(), zstdLevel);
        return new Encoded(body, filter.build(), n, raw, baseTime, lines.get(n - 1).time(), minOffset, maxOffset);
    }

    public static ChunkData decode(byte[] body) {
        long size = Zstd.getFrameContentSize(body);
        if (size < 0 || size > Integer.MAX_VALUE) {
            throw new IllegalStateException("not a chunk body: zstd frame without its size");
        }
        byte[] b = Zstd.decompress(body, (int) size);
        int[] pos = {0};
        int version = (int) varint(b, pos);
        if (version != VERSION) {
            throw new IllegalStateException("chunk format " + version + " is not known");
        }
        int n = (int) varint(b, pos);
        long t = fixed64(b, pos);
        long o = fixed64(b, pos);
        long[] times = new long[n];
        long[] offsets = new long[n];
        int[] subs = new int[n];
        byte[] flags = new byte[n];
        int[] starts = new int[n];
        int[] lengths = new int[n];
        for (int i = 0; i < n; i++) {
            t += unzigzag(varint(b, pos));
            times[i] = t;
        }
        for (int i = 0; i < n; i++) {
            o += unzigzag(varint(b, pos));
            offsets[i] = o;
        }
        for (int i = 0; i < n; i++) {
            subs[i] = (int) varint(b, pos);
        }
        for (int i = 0; i < n; i++) {
            flags[i] = b[pos[0]++];
        }
        for (int i = 0; i < n; i++) {
            lengths[i] = (int) varint(b, pos);
        }
        int textFrom = pos[0];
        int p = textFrom;
        for (int i = 0; i < n; i++) {
            starts[i] = p;
            p += lengths[i] + 1;
        }
        return new ChunkData(n, times, offsets, subs, flags, starts, lengths, b, textFrom, p);
    }

    private static long varint(byte[] b, int[] pos) {
        long v = 0;
        int shift = 0;
        while (true) {
            byte x = b[pos[0]++];
            v |= (long) (x & 0x7F) << shift;
            if (x >= 0) {
                return v;
            }
            shift += 7;
        }
    }

    private static long fixed64(byte[] b, int[] pos) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v |= (b[pos[0]++] & 0xFFL) << (8 * i);
        }
        return v;
    }

    private static long unzigzag(long v) {
        return (v >>> 1) ^ -(v & 1);
    }

    /** A growable byte buffer with the varint writers. */
    private static final class Buf extends ByteArrayOutputStream {
        Buf(int size) {
            super(size);
        }

        void varint(long v) {
            while ((v & ~0x7FL) != 0) {
                write((int) ((v & 0x7F) | 0x80));
                v >>>= 7;
            }
            write((int) v);
        }

        void zigzag(long v) {
            varint((v << 1) ^ (v >> 63));
        }

        void fixed64(long v) {
            for (int i = 0; i < 8; i++) {
                write((int) (v >>> (8 * i)));
            }
        }
    }
}
