package io.jobmon.logs.chunk;

import com.github.luben.zstd.Zstd;
import io.jobmon.contracts.bytes.ByteReader;
import io.jobmon.contracts.bytes.ByteWriter;
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
 * of the frame: {@link #decodeNewest} decompresses only as far as they reach (ADR 0020). A page of search results decodes
 * the whole frame ({@link #decode}), its texts laid out oldest first in one region; a count searches each segment's texts
 * where they were decompressed ({@link #countTexts}). Bodies of
 * version 1 ({@link ChunkCodecV1}) are still read.
 */
public final class ChunkCodec {

    public static final int VERSION = 2;
    /** A segment closes at this many lines … */
    public static final int SEGMENT_LINES = 256;
    /** … or this many bytes of text. */
    static final int SEGMENT_BYTES = 32 * 1024;
    /**
     * An index row keeps its chunk's newest segments holding at least this many lines (ADR 0052): a tail of 1,000 lines
     * of one pod, the console's, and the one line more that tells whether there are older ones …
     */
    static final int KEEP_LINES = 1024;
    /** … unless they reach this many bytes of text first (long lines): what bounds a live stream's kept bytes. */
    static final int KEEP_BYTES = 256 * 1024;

    private ChunkCodec() {
    }

    /**
     * An encoded chunk: the compressed body, its keyword filter and what the index row records; {@code newestFrame} is
     * the uncompressed frame of a body holding only the newest segments, at least {@value #KEEP_LINES} lines or
     * {@value #KEEP_BYTES} bytes of text (null when those are the whole body), which an index row may keep
     * ({@link #newestSegment}, ADRs 0047, 0052).
     */
    public record Encoded(byte[] body, byte[] filter, int lines, long rawBytes, long minTime, long maxTime,
            long minOffset, long maxOffset, byte[] newestFrame) {
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
        ByteWriter out = new ByteWriter((int) Math.min(Integer.MAX_VALUE - 64, raw + n * 12L + 64));
        out.varint(VERSION);
        out.varint(n);
        out.varint(cuts.size());
        ByteWriter segment = new ByteWriter(SEGMENT_BYTES + SEGMENT_LINES * 24);
        int segmentsFrom = out.size();
        byte[] newestFrame = null;
        long newerText = 0;
        for (int s = cuts.size() - 1; s >= 0; s--) {
            segment.reset();
            int from = s == 0 ? 0 : cuts.get(s - 1);
            newerText += writeSegment(segment, lines, from, cuts.get(s));
            out.varint(segment.size());
            out.put(segment.array(), 0, segment.size());
            if (newestFrame == null && s > 0 && (n - from >= KEEP_LINES || newerText >= KEEP_BYTES)) {
                newestFrame = newestFrame(n, cuts.size() - s, out, segmentsFrom);
            }
        }
        byte[] body = compress(out.array(), out.size(), zstdLevel);
        return new Encoded(body, filter.build(), n, raw, lines.time(0), lines.time(n - 1), minOffset, maxOffset,
                newestFrame);
    }

    /**
     * A body of the chunk's newest {@code count} segments, which hold at least {@value #KEEP_LINES} lines or
     * {@value #KEEP_BYTES} bytes of text (segments are cut from the oldest line, so the newest may hold only a few):
     * what a tail of a chunk's newest lines reads.
     */
    private static byte[] newestFrame(int n, int count, ByteWriter out, int segmentsFrom) {
        ByteWriter frame = new ByteWriter(out.size() - segmentsFrom + 16);
        frame.varint(VERSION);
        frame.varint(n);
        frame.varint(count);
        frame.put(out.array(), segmentsFrom, out.size() - segmentsFrom);
        return Arrays.copyOf(frame.array(), frame.size());
    }

    private static byte[] compress(byte[] src, int length, int level) {
        byte[] dst = new byte[(int) Zstd.compressBound(length)];
        long size = Zstd.compressByteArray(dst, 0, dst.length, src, 0, length, level);
        if (Zstd.isError(size)) {
            throw new IllegalStateException("zstd: " + Zstd.getErrorName(size));
        }
        return Arrays.copyOf(dst, (int) size);
    }

    /** The zstd level of a kept newest segment: small and read often, written once per chunk. */
    private static final int NEWEST_LEVEL = 3;

    /**
     * The chunk's newest segments holding at least {@value #KEEP_LINES} lines or {@value #KEEP_BYTES} bytes of text as a
     * body of their own (the chunk's line count, those segments), or the body itself when they are all of it: what an
     * index row keeps so that a tail of the newest lines needs no body (ADRs 0047, 0052). Read with
     * {@link #decodeNewestOfFront}: it holds the chunk's newest lines, {@link ChunkData#first} says which.
     */
    public static byte[] newestSegment(Encoded e) {
        return e.newestFrame() == null ? e.body() : compress(e.newestFrame(), e.newestFrame().length, NEWEST_LEVEL);
    }

    /** @return the segment's bytes of text */
    private static int writeSegment(ByteWriter out, ChunkLines lines, int from, int to) {
        long baseTime = lines.time(from);
        long baseOffset = Long.MAX_VALUE;
        for (int i = from; i < to; i++) {
            baseOffset = Math.min(baseOffset, lines.offset(i));
        }
        out.varint(to - from);
        out.fixed64LittleEndian(baseTime);
        out.fixed64LittleEndian(baseOffset);
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
            out.put(lines.flags(i));
        }
        for (int i = from; i < to; i++) {
            out.varint(lines.length(i));
        }
        byte[] text = lines.text();
        int bytes = 0;
        for (int i = from; i < to; i++) {
            out.put(text, lines.start(i), lines.length(i));
            out.put('\n');
            bytes += lines.length(i) + 1;
        }
        return bytes;
    }

    /** Every line of the chunk. */
    public static ChunkData decode(byte[] body) {
        byte[] b = Zstd.decompress(body, contentSize(body));
        ByteReader in = new ByteReader(b);
        int version = (int) in.varint();
        if (version == 1) {
            return ChunkCodecV1.decode(in); // all columns: format 1 has them before the texts
        }
        if (version != VERSION) {
            throw new IllegalStateException("chunk format " + version + " is not known");
        }
        int n = (int) in.varint();
        int count = (int) in.varint();
        List<Segments.At> segments = new ArrayList<>(count);
        for (int s = 0; s < count; s++) {
            int length = (int) in.varint();
            segments.add(new Segments.At(b, in.position(), in.position() + length));
            in.skip(length);
        }
        return Segments.assemble(n, n, segments);
    }

    /**
     * The lines {@code lengths[0..n)} of one segment, their texts at {@code b[from..]}, each followed by {@code '\n'}:
     * what a count looks at. {@code b} is a buffer reused for the next chunk; nothing of it may be kept.
     */
    @FunctionalInterface
    public interface TextCounter {
        long count(byte[] b, int from, int[] lengths, int n);
    }

    /** The decompression buffer of each search thread: a chunk's raw bytes are about 1 MB, each count would allocate it. */
    private static final ThreadLocal<byte[]> SCRATCH = ThreadLocal.withInitial(() -> new byte[0]);

    /**
     * The sum of {@code counter} over the chunk's segments: the texts are searched where they were decompressed (a
     * buffer the thread reuses), the other columns skipped, nothing assembled or copied — a count of a chunk inside its
     * range needs no more. Bodies of version 1 are decoded whole and counted as one segment.
     */
    public static long countTexts(byte[] body, TextCounter counter) {
        int size = contentSize(body);
        byte[] b = SCRATCH.get();
        if (b.length < size) {
            b = new byte[size];
            SCRATCH.set(b);
        }
        long got = Zstd.decompressByteArray(b, 0, size, body, 0, body.length);
        if (Zstd.isError(got) || got != size) {
            throw new IllegalStateException("chunk body: " + (Zstd.isError(got) ? Zstd.getErrorName(got) : "short frame"));
        }
        ByteReader in = new ByteReader(b, 0, size);
        int version = (int) in.varint();
        if (version == 1) {
            ChunkData d = ChunkCodecV1.decode(new ByteReader(Arrays.copyOf(b, size), in.position(), size));
            return counter.count(d.text, d.textFrom, d.lengths, d.size);
        }
        if (version != VERSION) {
            throw new IllegalStateException("chunk format " + version + " is not known");
        }
        in.varint(); // the chunk's line count
        int count = (int) in.varint();
        int[] lengths = new int[SEGMENT_LINES];
        long total = 0;
        for (int s = 0; s < count; s++) {
            int length = (int) in.varint();
            int next = in.position() + length;
            int k = (int) in.varint();
            if (lengths.length < k) {
                lengths = new int[k];
            }
            in.skip(16); // base time and offset
            in.skipVarints(3 * k); // times, offsets, subs
            in.skip(k); // flags
            for (int i = 0; i < k; i++) {
                lengths[i] = (int) in.varint();
            }
            total += counter.count(b, in.position(), lengths, k);
            in.position(next);
        }
        return total;
    }

    private static int contentSize(byte[] body) {
        long size = Zstd.getFrameContentSize(body);
        if (size < 0 || size > Integer.MAX_VALUE) {
            throw new IllegalStateException("not a chunk body: zstd frame without its size");
        }
        return (int) size;
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
