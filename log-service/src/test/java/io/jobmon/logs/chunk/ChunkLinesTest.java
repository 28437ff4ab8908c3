package io.jobmon.logs.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The intake's buffer of a chunk's lines: what goes in comes out, in chunk order, and a replay's rest is exact. */
class ChunkLinesTest {

    @Test
    void linesComeBackInChunkOrderWhateverOrderTheyWereBufferedIn() {
        List<StoredLine> in = ChunkCodecTest.lines(700);
        in.add(new StoredLine(in.get(10).time(), 3, 0, StoredLine.MASKED, "same time, earlier position: first"));
        List<StoredLine> shuffled = new ArrayList<>(in);
        Collections.shuffle(shuffled, new java.util.Random(7));
        ChunkLines sorted = ChunkLines.of(shuffled).sorted();
        in.sort(StoredLine::compare);
        assertEquals(in.size(), sorted.size());
        for (int i = 0; i < in.size(); i++) {
            assertEquals(in.get(i), sorted.line(i));
        }
        ChunkData d = ChunkCodec.decode(ChunkCodec.encode(sorted, 3, 1 << 12).body());
        for (int i = 0; i < in.size(); i++) {
            assertEquals(in.get(i), d.stored(i), "encoded from the columns");
        }
        assertEquals(1, sorted.count(StoredLine.MASKED));
    }

    @Test
    void linesAlreadyInOrderAreNotCopied() {
        ChunkLines c = ChunkLines.of(ChunkCodecTest.lines(50));
        assertSame(c, c.sorted());
    }

    @Test
    void theLinesFromAnOffsetAreExactlyThoseNotStoredYet() {
        List<StoredLine> in = ChunkCodecTest.lines(100); // offsets 1000..1099
        ChunkLines rest = ChunkLines.of(in).from(1040);
        assertEquals(60, rest.size());
        assertEquals(in.get(40), rest.line(0));
        assertEquals(in.get(99), rest.line(59));
        long bytes = 0;
        for (int i = 40; i < 100; i++) {
            bytes += in.get(i).text().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        }
        assertEquals(bytes, rest.textBytes());
    }
}
