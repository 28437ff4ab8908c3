package io.jobmon.logs.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChunkCodecTest {

    static List<StoredLine> lines(int n) {
        List<StoredLine> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new StoredLine(1_783_937_699_000_000_000L + i * 1_000_123L, 1000 + i, i % 3 == 0 ? 1 : 0,
                    i % 5 == 0 ? StoredLine.STDERR : 0, "step " + i + " loss=" + (2.0 - i / 1000.0) + " ünï"));
        }
        return out;
    }

    @Test
    void everyLineComesBackWithItsTimePositionFlagsAndText() {
        List<StoredLine> in = lines(1000);
        in.add(new StoredLine(in.get(999).time(), 5, 0, StoredLine.MASKED | StoredLine.CUT, "")); // earlier offset, same time
        in.sort(StoredLine::compare);
        ChunkCodec.Encoded e = ChunkCodec.encode(in, 3, 1 << 17);
        ChunkData d = ChunkCodec.decode(e.body());
        assertEquals(in.size(), d.size);
        for (int i = 0; i < in.size(); i++) {
            assertEquals(in.get(i), d.stored(i));
        }
        assertEquals(5, e.minOffset());
        assertEquals(1999, e.maxOffset());
        assertEquals(in.get(0).time(), e.minTime());
        assertEquals(in.get(in.size() - 1).time(), e.maxTime());
        assertTrue(e.body().length < e.rawBytes() / 4, "repetitive lines compress well");
    }

    @Test
    void theKeptNewestSegmentsHoldAtLeastATailsLinesOrAreTheWholeBody() {
        // 3,000 lines: segments of 256 and, newest, 184 (3,000 = 11 × 256 + 184): the five newest are kept, 1,208 lines
        List<StoredLine> in = lines(3000);
        ChunkCodec.Encoded e = ChunkCodec.encode(in, 3, 1 << 17);
        ChunkData kept = ChunkCodec.decodeNewestOfFront(ChunkCodec.newestSegment(e), 3000);
        assertEquals(184 + 4 * 256, kept.size);
        assertTrue(kept.size >= ChunkCodec.KEEP_LINES);
        assertEquals(3000 - kept.size, kept.first);
        for (int i = 0; i < kept.size; i++) {
            assertEquals(in.get(kept.first + i), kept.stored(i));
        }
        assertTrue(ChunkCodec.newestSegment(e).length < e.body().length / 2, "a part of the body");
        // exactly four segments' lines newest: those alone
        ChunkCodec.Encoded full = ChunkCodec.encode(lines(2048), 3, 1 << 17);
        assertEquals(1024, ChunkCodec.decodeNewestOfFront(ChunkCodec.newestSegment(full), 2048).size);
        // a chunk of fewer lines than a tail is kept whole
        ChunkCodec.Encoded small = ChunkCodec.encode(lines(1000), 3, 1 << 17);
        assertEquals(small.body(), ChunkCodec.newestSegment(small));
        assertEquals(0, ChunkCodec.decodeNewestOfFront(ChunkCodec.newestSegment(small), 1000).first);
    }

    @Test
    void longLinesBoundTheKeptSegmentsBytes() {
        // lines of ~4 KB: segments of 8 lines (32 KiB of text); 64 lines reach 256 KiB, not 1,024
        List<StoredLine> in = new ArrayList<>();
        String pad = "x".repeat(4090);
        for (int i = 0; i < 2000; i++) {
            in.add(new StoredLine(1_783_937_699_000_000_000L + i * 1_000L, i, 0, 0, String.format("%05d ", i) + pad));
        }
        ChunkCodec.Encoded e = ChunkCodec.encode(in, 3, 1 << 17);
        ChunkData kept = ChunkCodec.decodeNewestOfFront(ChunkCodec.newestSegment(e), 2000);
        long text = (long) kept.size * 4097;
        assertTrue(text >= ChunkCodec.KEEP_BYTES && text < ChunkCodec.KEEP_BYTES + 32 * 1024 + 4097, kept.size + " lines");
        assertEquals(2000 - kept.size, kept.first);
        assertEquals(in.get(1999).text(), kept.line(kept.size - 1));
    }

    @Test
    void theTextRegionIsTheLinesJoinedByNewlines() {
        ChunkData d = ChunkCodec.decode(ChunkCodec.encode(lines(3), 1, 1024).body());
        String region = new String(d.text, d.textFrom, d.textTo - d.textFrom, java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(d.line(0) + "\n" + d.line(1) + "\n" + d.line(2) + "\n", region);
        assertEquals(1, d.lineAt(d.starts[1] + 2));
        assertEquals(2, d.lineAt(d.starts[2]));
    }

    @Test
    void theFilterRejectsKeywordsNotInTheChunkAndKeepsThoseInIt() {
        ChunkCodec.Encoded e = ChunkCodec.encode(lines(2000), 1, 1 << 17);
        assertTrue(TrigramFilter.mayContain(e.filter(), TrigramFilter.hashes("loss=1.5", false)));
        assertTrue(TrigramFilter.mayContain(e.filter(), TrigramFilter.hashes("LOSS", true)), "case-insensitive");
        assertFalse(TrigramFilter.mayContain(e.filter(), TrigramFilter.hashes("CUDA out of memory", false)));
        assertFalse(TrigramFilter.mayContain(e.filter(), TrigramFilter.hashes("Traceback", true)));
        assertTrue(e.filter().length < (1 << 17) / 8, "folded down for a small chunk: " + e.filter().length);
    }

    @Test
    void aChunkOfManySegmentsComesBackWhole() {
        List<StoredLine> in = lines(5 * ChunkCodec.SEGMENT_LINES + 17);
        in.add(new StoredLine(in.get(in.size() - 1).time() + 1, 99_999, 0, 0, "x".repeat(ChunkCodec.SEGMENT_BYTES + 5)));
        in.add(new StoredLine(in.get(in.size() - 1).time() + 1, 100_000, 0, 0, "after a long line"));
        ChunkData d = ChunkCodec.decode(ChunkCodec.encode(in, 3, 1 << 17).body());
        assertEquals(in.size(), d.size);
        assertEquals(0, d.first);
        StringBuilder region = new StringBuilder();
        for (int i = 0; i < in.size(); i++) {
            assertEquals(in.get(i), d.stored(i));
            region.append(in.get(i).text()).append('\n');
        }
        assertEquals(region.toString(), new String(d.text, d.textFrom, d.textTo - d.textFrom, StandardCharsets.UTF_8),
                "one text region, oldest line first, for a search to scan");

        // a count reads each segment's texts where they were decompressed: every line once, in segments, in chunk order
        List<String> seen = new ArrayList<>();
        List<Integer> segmentSizes = new ArrayList<>();
        long counted = ChunkCodec.countTexts(ChunkCodec.encode(in, 3, 1 << 17).body(), (b, from, lengths, n) -> {
            segmentSizes.add(n);
            List<String> segment = new ArrayList<>();
            for (int i = 0, at = from; i < n; at += lengths[i] + 1, i++) {
                segment.add(new String(b, at, lengths[i], StandardCharsets.UTF_8));
                assertEquals('\n', b[at + lengths[i]], "each text followed by a newline");
            }
            seen.addAll(0, segment); // the newest segment comes first
            return n;
        });
        assertEquals(in.size(), counted);
        assertEquals(in.stream().map(StoredLine::text).toList(), seen);
        assertTrue(segmentSizes.size() > 5 && segmentSizes.stream().allMatch(k -> k <= ChunkCodec.SEGMENT_LINES),
                "counted segment by segment: " + segmentSizes);
    }

    @Test
    void theNewestLinesAreReadWithoutTheRestAndAreTheChunksLastLines() {
        List<StoredLine> in = lines(10 * ChunkCodec.SEGMENT_LINES);
        byte[] body = ChunkCodec.encode(in, 3, 1 << 17).body();
        ChunkData newest = ChunkCodec.decodeNewest(body, 300);
        assertTrue(newest.size >= 300 && newest.size < in.size(), "whole segments, not the chunk: " + newest.size);
        assertEquals(in.size() - newest.size, newest.first);
        for (int i = 0; i < newest.size; i++) {
            assertEquals(in.get(newest.first + i), newest.stored(i));
        }
        assertEquals(in.get(in.size() - 1).text() + "\n", new String(newest.text, newest.starts[newest.size - 1],
                newest.lengths[newest.size - 1] + 1, StandardCharsets.UTF_8));
        ChunkData all = ChunkCodec.decodeNewest(body, in.size() + 5);
        assertEquals(in.size(), all.size, "asking for more than the chunk holds gives all of it");
        assertEquals(0, all.first);
    }

    /** A body of 3,000 lines ({@link #lines}) written by the format 1 encoder, as chunks stored before 2026-12-02 are. */
    @Test
    void aLargeChunkOfTheFirstFormatIsReadWholeAndForATail() throws java.io.IOException {
        byte[] body;
        try (java.io.InputStream in = getClass().getResourceAsStream("/chunks/v1-3000-lines.zst")) {
            body = in.readAllBytes();
        }
        List<StoredLine> expected = lines(3000);
        for (ChunkData d : List.of(ChunkCodec.decode(body), ChunkCodec.decodeNewest(body, 100))) {
            assertEquals(3000, d.size);
            assertEquals(0, d.first, "a format 1 body is read whole");
            for (int i = 0; i < 3000; i++) {
                assertEquals(expected.get(i), d.stored(i));
            }
        }
    }

    /** A body written before segments (format 1): three lines. */
    private static final String VERSION_1_BODY =
            "KLUv/SBHOQIAAQMAnlKy4tHBGAcAAAAAAAAAAOgHmKDWuQcAAgIAAQAAAwAPCgVzdGVwIDEgbG9zcz0yLjAKdG9rZW49KioqKgrDvG7Drwo=";

    @Test
    void chunksWrittenInTheFirstFormatAreStillRead() {
        byte[] body = java.util.Base64.getDecoder().decode(VERSION_1_BODY);
        List<StoredLine> expected = List.of(new StoredLine(1_783_937_699_000_000_000L, 7, 0, 0, "step 1 loss=2.0"),
                new StoredLine(1_783_937_699_000_000_500L, 8, 1, StoredLine.STDERR | StoredLine.MASKED, "token=****"),
                new StoredLine(1_783_937_700_000_000_000L, 9, 0, 0, "ünï"));
        for (ChunkData d : List.of(ChunkCodec.decode(body), ChunkCodec.decodeNewest(body, 1))) {
            assertEquals(3, d.size);
            for (int i = 0; i < 3; i++) {
                assertEquals(expected.get(i), d.stored(i));
            }
        }
    }
}
