package io.jobmon.diagnosis.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;
import org.junit.jupiter.api.Test;

/** Chinese for any {@code zh} locale, English otherwise; the category and action do not depend on it. */
class LocaleTest {

    private static final DiagnosisEngine ENGINE = new DiagnosisEngine();

    private static EvidenceBundle oom() {
        return BundleBuilder.job("FAILED").pod("w-0", "n1", "Failed", "terminated", "Error", 1, 0)
                .log("2026-07-13T10:00:00Z", "w-0", "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.")
                .build();
    }

    private static boolean hasCjk(String s) {
        return s.codePoints().anyMatch(c -> Character.UnicodeScript.of(c) == Character.UnicodeScript.HAN);
    }

    @Test
    void chineseLocalesGetChineseSummaryAndSuggestion() {
        for (Locale zh : new Locale[] {Locale.CHINESE, Locale.SIMPLIFIED_CHINESE, Locale.TRADITIONAL_CHINESE,
            Locale.forLanguageTag("zh-Hans-CN")}) {
            Diagnosis d = ENGINE.analyze(oom(), zh);
            assertTrue(hasCjk(d.summary()), d.summary());
            assertTrue(hasCjk(d.suggestion()), d.suggestion());
            assertEquals(Category.GPU_OOM, d.category());
            assertEquals(Action.TERMINATE, d.action());
        }
    }

    @Test
    void otherLocalesGetEnglish() {
        for (Locale l : new Locale[] {Locale.ENGLISH, Locale.US, Locale.GERMAN, Locale.JAPANESE, Locale.ROOT}) {
            Diagnosis d = ENGINE.analyze(oom(), l);
            assertFalse(hasCjk(d.summary()), d.summary());
            assertFalse(hasCjk(d.suggestion()), d.suggestion());
        }
        Diagnosis d = ENGINE.analyze(oom());
        assertTrue(d.summary().startsWith("CUDA out of memory on w-0"), d.summary());
        assertEquals(d, ENGINE.analyze(oom(), null));
    }

    @Test
    void everyCategoryHasBothLanguages() {
        for (Category c : Category.values()) {
            PatternCatalogue.CategorySpec spec = PatternCatalogue.defaults().category(c);
            assertTrue(hasCjk(spec.summary().zh()) && hasCjk(spec.suggestion().zh()), c::name);
            assertFalse(hasCjk(spec.summary().en()) || hasCjk(spec.suggestion().en()), c::name);
            assertFalse(spec.suggestion().en().isBlank(), c::name);
        }
    }
}
