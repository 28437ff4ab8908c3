package io.jobmon.diagnosis.engine;

import static io.jobmon.diagnosis.engine.TextRules.hasCjk;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * One analysis, both languages: automatic diagnoses are stored before anyone reads them, so every text the engine
 * writes exists in English and Chinese, and the stored result renders to either.
 */
class BilingualTest {

    private static final DiagnosisEngine ENGINE = new DiagnosisEngine();
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{(\\w+)}");

    private static List<String> placeholders(String s) {
        Matcher m = PLACEHOLDER.matcher(s);
        return m.results().map(r -> r.group(1)).sorted().toList();
    }

    private static void bothLanguages(String what, Localized text, boolean required) {
        if (!required && text.isEmpty()) {
            return;
        }
        assertFalse(text.en().isBlank(), what + " (en)");
        assertTrue(hasCjk(text.zh()), () -> what + " has no Chinese text: " + text.zh());
        assertFalse(hasCjk(text.en()), () -> what + " (en) is not English: " + text.en());
        assertEquals(placeholders(text.en()), placeholders(text.zh()), what + ": both languages fill the same placeholders");
    }

    @Test
    void everyCatalogueEntryAndSummaryTemplateHasBothLanguages() {
        PatternCatalogue catalogue = PatternCatalogue.defaults();
        for (Category c : Category.values()) {
            PatternCatalogue.CategorySpec spec = catalogue.category(c);
            bothLanguages(c + ".summary", spec.summary(), true);
            bothLanguages(c + ".summaryUnplaced", spec.summaryUnplaced(), true);
            bothLanguages(c + ".suggestion", spec.suggestion(), true);
            bothLanguages(c + ".suggestionNoLog", spec.suggestionNoLog(), false);
            assertFalse(placeholders(spec.summaryUnplaced().en()).contains("pod"), c::name);
            assertFalse(placeholders(spec.summaryUnplaced().en()).contains("node"), c::name);
        }
    }

    @Test
    void theStoredResultRendersToEitherLanguageAndEqualsTheDirectAnalysis() {
        EvidenceBundle b = BundleBuilder.job("FAILED").pod("w-0", "n1", "Failed", "terminated", "Error", 1, 0)
                .log("2026-07-13T10:00:00Z", "w-0", "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.")
                .build();
        BilingualDiagnosis both = ENGINE.analyzeBilingual(b);
        assertEquals(ENGINE.analyze(b, Locale.ENGLISH), both.english());
        assertEquals(ENGINE.analyze(b, Locale.SIMPLIFIED_CHINESE), both.chinese());
        assertEquals(both.chinese(), both.in(Locale.forLanguageTag("zh-TW")));
        assertEquals(both.english(), both.in(Locale.GERMAN));
        assertEquals(both.english().category(), both.chinese().category());
        assertEquals(both.english().action(), both.chinese().action());
        assertEquals(both.english().confidence(), both.chinese().confidence());
        assertTrue(hasCjk(both.chinese().summary()) && !hasCjk(both.english().summary()));
        assertEquals(both.english().evidence().get(0).text(), both.chinese().evidence().get(0).text(), "quoted lines stay as they are");
    }

    @Test
    void theEnginesOwnEvidenceTextsAreTranslated() {
        String start = "2026-07-13T10:00:00Z";
        EvidenceBundle hang = BundleBuilder.job("RUNNING").pod("w-0", "n1", "Running", "running", null, null, 0)
                .logs(start, 60, "w-0", BundleBuilder.tqdm(100, 10000, 60, 60, 60, 5))
                .metric("DCGM_FI_DEV_GPU_UTIL", "n1", "0", "w-0", start, BundleBuilder.repeat(0, 120))
                .window(start, "2026-07-13T10:30:00Z").build();
        BilingualDiagnosis d = ENGINE.analyzeBilingual(hang);
        assertEquals(Category.TRAINING_HANG, d.category());
        long written = d.evidence().stream().filter(e -> !e.text().en().equals(e.text().zh())).count();
        assertTrue(written >= 2, d.evidence()::toString);
        d.evidence().stream().filter(e -> !e.text().en().equals(e.text().zh()))
                .forEach(e -> assertTrue(hasCjk(e.text().zh()) && !hasCjk(e.text().en()), e::toString));
    }

    @Test
    void everyOutcomeOfTheVariationsHasChineseTexts() {
        Stream.of(BundleBuilder.job("RUNNING").build(), BundleBuilder.job("PENDING").build(),
                        BundleBuilder.job("SUCCEEDED").pod("w-0", "n1", "Succeeded", "terminated", "Completed", 0, 0).build(),
                        BundleBuilder.job("FAILED").pod("w-0", "n1", "Failed", "terminated", "Error", 137, 0).build())
                .map(ENGINE::analyzeBilingual).forEach(TextRules::assertOnlyQuotedEvidenceIsReferred);
    }

    @Test
    void theBilingualResultIsPlainJsonAndReadsBack() throws Exception {
        ObjectMapper plain = new ObjectMapper();
        BilingualDiagnosis d = ENGINE.analyzeBilingual(BundleBuilder.job("FAILED")
                .pod("w-0", "n1", "Failed", "terminated", "OOMKilled", 137, 0)
                .log("2026-07-13T10:00:00.250Z", "w-0", "Memory cgroup out of memory: Killed process 12 (python)").build());
        JsonNode json = plain.readTree(plain.writeValueAsString(d));
        assertTrue(json.get("summary").get("en").isTextual() && json.get("summary").get("zh").isTextual(), json::toString);
        assertTrue(json.get("suggestion").has("zh"));
        JsonNode ev = json.get("evidence").get(0);
        assertTrue(ev.get("text").has("en") && ev.get("text").has("zh"), ev::toString);
        assertEquals("CONTAINER_OOM", json.get("category").asText());
        BilingualDiagnosis back = plain.readValue(plain.writeValueAsString(d), BilingualDiagnosis.class);
        assertEquals(d, back);
        assertNotEquals(back.english().summary(), back.chinese().summary());
    }
}
