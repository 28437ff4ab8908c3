package io.jobmon.logs.query;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jobmon.logs.chunk.ChunkCodec;
import io.jobmon.logs.chunk.ChunkData;
import io.jobmon.logs.chunk.StoredLine;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** A keyword search over a decoded chunk finds exactly the lines that hold it, however close or far apart. */
class LineMatcherTest {

    static List<StoredLine> lines() {
        List<StoredLine> lines = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            String text = i % 2 == 0 ? "step " + i + " loss=" + (2.0 - i / 10_000.0) : "step " + i + " lr=3e-4";
            if (i % 997 == 0) {
                text += " NCCL WARN Call to connect returned Connection refused";
            }
            if (i % 3 == 0) {
                text += " LOSS scaled";
            }
            lines.add(new StoredLine(1_783_937_699_000_000_000L + i * 1_000_123L, i, 0, 0, text));
        }
        return lines;
    }

    @Test
    void theLinesMarkedAreTheLinesThatHoldTheKeyword() {
        List<StoredLine> lines = lines();
        ChunkData d = ChunkCodec.decode(ChunkCodec.encode(lines, 3, 1024).body());
        for (String keyword : List.of("loss", "NCCL WARN", "step", "refused", "not there")) {
            for (boolean ignoreCase : new boolean[] {false, true}) {
                boolean[] expected = new boolean[lines.size()];
                for (int i = 0; i < lines.size(); i++) {
                    String t = lines.get(i).text();
                    expected[i] = ignoreCase ? t.toLowerCase(Locale.ROOT).contains(keyword.toLowerCase(Locale.ROOT))
                            : t.contains(keyword);
                }
                assertArrayEquals(expected, LineMatcher.of(keyword, ignoreCase, null, 512, 60_000).matches(d),
                        keyword + (ignoreCase ? " (any case)" : ""));
            }
        }
    }

    /** A count (the chunk's segments searched where they were decompressed) agrees with the lines a page would mark. */
    @Test
    void aCountIsTheNumberOfLinesAPageWouldMark() {
        List<StoredLine> lines = lines();
        lines.add(new StoredLine(lines.get(lines.size() - 1).time() + 1, 9_999, 0, 0,
                "x".repeat(40_000) + " loss at the end of a line longer than a segment"));
        lines.add(new StoredLine(lines.get(lines.size() - 1).time() + 1, 10_000, 0, 0, "Verlust (loss) über 1.0 — 损失"));
        byte[] body = ChunkCodec.encode(lines, 3, 1024).body();
        ChunkData d = ChunkCodec.decode(body);
        String[][] searches = {{"loss", null}, {"NCCL WARN", null}, {"step", null}, {"not there", null}, {"损失", null},
            {"loss", "loss=1\\.9[0-9]+$"}, {null, "^step [0-9]*7 "}, {null, "über"}, {"LOSS", "scaled"}};
        for (String[] s : searches) {
            for (boolean ignoreCase : new boolean[] {false, true}) {
                LineMatcher m = LineMatcher.of(s[0], ignoreCase, s[1], 512, 60_000);
                long marked = 0;
                for (boolean x : m.matches(d)) {
                    marked += x ? 1 : 0;
                }
                assertEquals(marked, ChunkCodec.countTexts(body, m::countIn), s[0] + " / " + s[1] + " " + ignoreCase);
                if (s[0] != null && s[1] == null) {
                    long expected = lines.stream().filter(l -> ignoreCase
                            ? l.text().toLowerCase(Locale.ROOT).contains(s[0].toLowerCase(Locale.ROOT))
                            : l.text().contains(s[0])).count();
                    assertEquals(expected, marked, s[0]);
                }
            }
        }
    }
}
