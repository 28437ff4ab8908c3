package io.jobmon.diagnosis.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;

/** Checks on the texts of a diagnosis that hold for every bundle. */
final class TextRules {

    private TextRules() {
    }

    static boolean hasCjk(String s) {
        return s.codePoints().anyMatch(c -> Character.UnicodeScript.of(c) == Character.UnicodeScript.HAN);
    }

    /**
     * A suggestion may point at quoted lines ("quoted below", "下方引用") only when a log line is quoted; both
     * languages are filled; a summary never keeps an unfilled placeholder.
     */
    static void assertOnlyQuotedEvidenceIsReferred(BilingualDiagnosis d) {
        boolean logQuoted = d.evidence().stream().anyMatch(e -> Evidence.LOG.equals(e.source()));
        String en = d.suggestion().en().toLowerCase(Locale.ROOT);
        assertTrue(logQuoted || !(en.contains("quoted") || d.suggestion().zh().contains("引用")),
                () -> d.category() + " refers to quoted lines but quotes none: " + d.suggestion().en());
        assertTrue(hasCjk(d.summary().zh()) && hasCjk(d.suggestion().zh()), () -> "Chinese texts of " + d.category());
        assertTrue(!hasCjk(d.summary().en()) || d.evidence().stream().anyMatch(e -> hasCjk(e.text().en())),
                () -> "English summary of " + d.category() + ": " + d.summary().en());
        for (String s : new String[] {d.summary().en(), d.summary().zh()}) {
            assertTrue(!s.contains("{pod}") && !s.contains("{node}") && !s.contains("{job}"), s);
        }
        for (BilingualEvidence e : d.evidence()) {
            if (Evidence.METRIC.equals(e.source())) {
                assertTrue(hasCjk(e.text().zh()), () -> "metric evidence written by the engine in Chinese: " + e.text().zh());
            }
        }
    }
}
