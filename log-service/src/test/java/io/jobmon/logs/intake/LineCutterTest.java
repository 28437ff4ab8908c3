package io.jobmon.logs.intake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class LineCutterTest {

    @Test
    void aLineOverTheLimitIsCutWithAMarkerNamingWhatWasCut() {
        assertEquals("abcde … [cut 5 bytes]", LineCutter.cut("abcdefghij", 5));
    }

    @Test
    void aCutNeverSplitsACharacter() {
        // "é" is two bytes: the cut falls before it rather than inside it
        assertEquals("abcd … [cut 4 bytes]", LineCutter.cut("abcdéé", 5));
        assertEquals("ab … [cut 8 bytes]", LineCutter.cut("ab😀😀", 5));
    }

    @Test
    void aLineWithinTheLimitIsKept() {
        String s = "x".repeat(100);
        assertSame(s, LineCutter.cut(s, 100));
    }
}
