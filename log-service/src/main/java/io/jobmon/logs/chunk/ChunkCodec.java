package io.jobmon.logs.chunk;

import com.github.luben.zstd.Zstd;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The chunk body format, version 2, zstd-compressed as one frame: a header (version, line count, segment count), then
 * the lines in <b>segments</b> of up to {@value #SEGMENT_LINES} lines or {@value #SEGMENT_BYTES} bytes of text,
 * <b>newest segment first</b>, each preceded by its size in bytes: line count, base time, base offset, then its
 * columns — time deltas (zigzag varints), offset deltas (zigzag varints), record sub-indexes, flags, text lengths
 * (varints) — then its texts, each followed by {@code '\n'}. Lines are in chunk order ({@link StoredLine#compare}).
 *
 * <p>Newest first, so that the last lines of a chunk (a tail, a backward page, a follow's start) are the first bytes
 * of the frame: {@link #decodeNewest} decompresses only as far as they reach (ADR 0020). A search decodes the whole
 * frame ({@link #decode}); the texts are then laid out oldest first, one region it scans in one pass. Bodies of
 * version 1 ({@link ChunkCodecV1}) are still read.
 */
public final class ChunkCodec {

    public static final int VERSION = 2;
    /** A segment closes at this many lines … */
    public static final int SEGMENT_LINES = 256;
    /** … or this many bytes of text. */
    static final int SEGMENT_BYTES = 32 * 1024;

    private ChunkCodec() {
    }

    /** An encoded chunk: the compressed body, its keyword filter and what the index row records. */
    public record Encoded(byte[] body, byte[] filter, int lines, long rawBytes, long minTime, long maxTime,
            long minOffset, long maxOffset) {
    }

    /** @param lines in chunk order, at least one */
    public static Encoded encode(List<StoredLine> lines, int zstdLevel, int filterBits) {
        return encode(ChunkLines.of(lines), zstdLevel, filterBits);
    }

    /** @param lines in chunk order, at least one */
    public static Encoded encode(ChunkLines lines, int zstdLevel, int filterBits) {
        int n = lines.size();
        byte[] text = lines.text();
        long minOffset = Long.MAX_VALUE;
        long maxOffset = Long.MIN_VALUE;
        TrigramFilter filter = new TrigramFilter(filterBits);
        List<Integer> cuts = new ArrayList<>();
        int segmentLines = 0;
        int segmentBytes = 0;
        for (int i = 0; i < n; i++) {
            int length = lines.length(i);
            minOffset = Math.min(minOffset, lines.offset(i));
            maxOffset = Math.max(maxOffset, lines.offset(i));
            filter.add(text, lines.start(i), length);
            segmentLines++;
            segmentBytes += length + 1;
            if (segmentLines == SEGMENT_LINES || segmentBytes >= SEGMENT_BYTES || i == n - 1) {
                cuts.add(i + 1);
                segmentLines = 0;
                segmentBytes = 0;
            }
        }
        long raw = lines.textBytes();
        Bytes.Buf out = new Bytes.Buf((int) Math.min(Integer.MAX_VALUE - 64, raw + n * 12L + 64));
        out.varint(VERSION);
        out.varint(n);
        out.varint(cuts.size());
        Bytes.Buf segment = new Bytes.Buf(SEGMENT_BYTES + SEGMENT_LINES * 24);
        for (int s = cuts.size() - 1; s >= 0; s--) {
            segment.reset();
            writeSegment(segment, lines, s == 0 ? 0 : cuts.get(s - 1), cuts.get(s));
            out.varint(segment.size());
            out.write(segment.array(), 0, segment.size());
        }
        byte[] dst = new byte[(int) Zstd.compressBound(out.size())];
        long size = Zstd.compressByteArray(dst, 0, dst.length, out.array(), 0, out.size(), zstdLevel);
        if (Zstd.isError(size)) {
            throw new IllegalStateException("zstd: " + Zstd.getErrorName(size));
        }
        byte[] body = Arrays.copyOf(dst, (int) size);
        return new Encoded(body, filter.build(), n, raw, lines.time(0), lines.time(n - 1), minOffset, maxOffset);
    }

    private static void writeSegment(Bytes.Buf out, ChunkLines lines, int from, int to) {
        long baseTime = lines.time(from);
        long baseOffset = Long.MAX_VALUE;
        for (int i = from; i < to; i++) {
            baseOffset = Math.min(baseOffset, lines.offset(i));
        }
        out.varint(to - from);
        out.fixed64(baseTime);
        out.fixed64(baseOffset);
        long prev = baseTime;
        for (int i = from; i < to; i++) {
            out.zigzag(lines.time(i) - prev);
            prev = lines.time(i);
        }
        prev = baseOffset;
        for (int i = from; i < to; i++) {
            out.zigzag(lines.offset(i) - prev);
            prev = lines.offset(i);
        }
        for (int i = from; i < to; i++) {
            out.varint(lines.sub(i));
        }
        for (int i = from; i < to; i++) {
            out.write(lines.flags(i));
        }
        for (int i = from; i < to; i++) {
            out.varint(lines.length(i));
        }
        byte[] text = lines.text();
        for (int i = from; i < to; i++) {
            out.write(text, lines.start(i), lines.length(i));
            out.write('\n');
        }
    }

    /** Every line of the chunk. */
    public static ChunkData decode(byte[] body) {
        return decode(body, false);
    }

    /**
     * Every line's text, without the other columns ({@link ChunkData#times}, {@code offsets}, {@code subs} and
     * {@code flags} are null): what a count inside the chunk's time bounds needs.
     */
    public static ChunkData decodeTexts(byte[] body) {
        return decode(body, true);
    }

    private static ChunkData decode(byte[] body, boolean textsOnly) {
        long size = Zstd.getFrameContentSize(body);
        if (size < 0 || size > Integer.MAX_VALUE) {
            throw new IllegalStateException("not a chunk body: zstd frame without its size");
        }
        byte[] b = Zstd.decompress(body, (int) size);
        int[] pos = {0};
        int version = (int) Bytes.varint(b, pos);
        if (version == 1) {
            return ChunkCodecV1.decode(b, pos); // all columns: format 1 has them before the texts
        }
        if (version != VERSION) {
            throw new IllegalStateException("chunk format " + version + " is not known");
        }
        int n = (int) Bytes.varint(b, pos);
        int count = (int) Bytes.varint(b, pos);
        List<Segments.At> segments = new ArrayList<>(count);
        for (int s = 0; s < count; s++) {
            int length = (int) Bytes.varint(b, pos);
            segments.add(new Segments.At(b, pos[0]));
            pos[0] += length;
        }
        return Segments.assemble(n, n, segments, textsOnly);
    }

    /**
     * At least the newest {@code lines} lines of the chunk (all of them if it holds fewer), decompressing the frame only
     * as far as they reach; their {@link ChunkData#first} tells which they are.
     */
    public static ChunkData decodeNewest(byte[] body, int lines) {
        return Segments.newest(body, lines, true);
    }

    /**
     * As {@link #decodeNewest} from only the first bytes of a body ({@link ChunkStore#get(java.util.List, int[])});
     * null when they do not reach that far (or the body is of format 1): then the whole body is needed.
     */
    public static ChunkData decodeNewestOfFront(byte[] front, int lines) {
        return Segments.newest(front, lines, false);
    }
}
