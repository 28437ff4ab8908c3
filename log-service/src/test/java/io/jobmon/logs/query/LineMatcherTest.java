package io.jobmon.logs.query;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.jobmon.logs.chunk.ChunkCodec;
import io.jobmon.logs.chunk.ChunkData;
import io.jobmon.logs.chunk.StoredLine;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** A keyword search over a decoded chunk finds exactly the lines that hold it, however close or far apart. */
class LineMatcherTest {

    @Test
    void theLinesMarkedAreTheLinesThatHoldTheKeyword() {
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
}
