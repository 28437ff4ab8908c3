package io.jobmon.diagnosis.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The Aho-Corasick keyword pre-filter and the linear-time guarantees of the matcher. */
class KeywordIndexTest {

    private static Set<String> found(KeywordIndex index, List<String> words, String text) {
        Set<String> out = new TreeSet<>();
        index.scan(text, Integer.MAX_VALUE, k -> out.add(words.get(k)));
        return out;
    }

    @Test
    void findsOverlappingKeywordsCaseInsensitively() {
        List<String> words = List.of("he", "she", "his", "hers", "out of memory", "显存不足");
        KeywordIndex index = new KeywordIndex(words);
        assertEquals(Set.of("he", "she", "hers"), found(index, words, "uSHErs"));
        assertEquals(Set.of("out of memory"), found(index, words, "CUDA OUT OF MEMORY."));
        assertEquals(Set.of("显存不足"), found(index, words, "错误：显存不足"));
        assertEquals(Set.of(), found(index, words, "nothing at all"));
    }

    @Test
    void respectsTheScanLimit() {
        List<String> words = List.of("needle");
        KeywordIndex index = new KeywordIndex(words);
        Set<String> out = new TreeSet<>();
        index.scan("haystack needle", 10, k -> out.add(words.get(k)));
        assertTrue(out.isEmpty());
    }

    @Test
    void pathologicalLinesStayFast() {
        StringBuilder line = new StringBuilder("[rank0]: ");
        while (line.length() < 2_000_000) {
            line.append("Error Exception No such file or directory Xid 79 nccl warn out of memory aaaaaaaaaaaa ");
        }
        BundleBuilder b = BundleBuilder.job("FAILED");
        for (int i = 0; i < 20; i++) {
            b.log("2026-07-13T10:00:00Z", "w-0", line.toString());
        }
        EvidenceBundle bundle = b.build();
        DiagnosisEngine engine = new DiagnosisEngine();
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> engine.analyze(bundle));
    }

    @Test
    void tenThousandLinesAnalyseQuickly() {
        BundleBuilder b = BundleBuilder.job("RUNNING").pod("w-0", "n1", "Running", "running", null, null, 0);
        b.logs("2026-07-13T10:00:00Z", 1, "w-0", BundleBuilder.tqdm(1, 100000, 1, 1, 1, 10_000));
        EvidenceBundle bundle = b.build();
        DiagnosisEngine engine = new DiagnosisEngine();
        engine.analyze(bundle);
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> engine.analyze(bundle));
    }
}
