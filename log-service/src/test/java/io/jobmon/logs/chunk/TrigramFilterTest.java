package io.jobmon.logs.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class TrigramFilterTest {

    private static byte[] filterOf(String... lines) {
        TrigramFilter f = new TrigramFilter(1 << 17);
        for (String l : lines) {
            byte[] b = l.getBytes(StandardCharsets.UTF_8);
            f.add(b, 0, b.length);
        }
        return f.build();
    }

    @Test
    void aFoldedFilterAnswersAsTheFullOne() {
        byte[] f = filterOf("RuntimeError: NCCL error in: ProcessGroupNCCL.cpp:1970", "step 5 loss=2.0");
        assertEquals(64, f.length, "two lines fold down to the smallest size");
        assertTrue(TrigramFilter.mayContain(f, TrigramFilter.hashes("NCCL error", false)));
        assertTrue(TrigramFilter.mayContain(f, TrigramFilter.hashes("nccl ERROR", true)));
        assertFalse(TrigramFilter.mayContain(f, TrigramFilter.hashes("OutOfMemoryError", false)));
    }

    @Test
    void keywordsShorterThanThreeBytesCannotBeTold() {
        assertEquals(0, TrigramFilter.hashes("ok", false).length);
        assertTrue(TrigramFilter.mayContain(filterOf("x"), TrigramFilter.hashes("ok", false)));
    }

    @Test
    void trigramsAcrossLinesAreNotInTheFilter() {
        byte[] f = filterOf("abc", "def");
        assertFalse(TrigramFilter.mayContain(f, TrigramFilter.hashes("bcd", false)));
    }
}
