package io.jobmon.logs.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
}
