package io.jobmon.contracts.i18n;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Locale;
import org.junit.jupiter.api.Test;

/** A reader gets Chinese for any zh tag, English for any en tag, the configured default otherwise. */
class LocalesTest {

    @Test
    void everyChineseTagReadsSimplifiedChinese() {
        for (String h : new String[] {"zh", "zh-CN", "zh-cn", "zh-Hans", "zh-Hans-CN", "zh-TW", "zh-CN,zh;q=0.9,en;q=0.8"}) {
            assertEquals(Locales.ZH_CN, Locales.pick(h, Locales.EN), h);
        }
    }

    @Test
    void englishTagsReadEnglish() {
        for (String h : new String[] {"en", "en-US", "en-GB,en;q=0.9", "fr-FR, en;q=0.5"}) {
            assertEquals(Locales.EN, Locales.pick(h, Locales.ZH_CN), h);
        }
    }

    @Test
    void qualityValuesDecideAndZeroMeansNot() {
        assertEquals(Locales.ZH_CN, Locales.pick("en;q=0.3, zh-CN;q=0.8", Locales.EN));
        assertEquals(Locales.EN, Locales.pick("zh;q=0, en", Locales.ZH_CN));
    }

    @Test
    void noneAnUnknownOrAMalformedHeaderGetsTheDefault() {
        for (String h : new String[] {null, "", "fr", "de-DE, ja;q=0.5", "*", "en;q=abc", ";;;"}) {
            assertEquals(Locales.ZH_CN, Locales.pick(h, Locales.ZH_CN), String.valueOf(h));
            assertEquals(Locales.EN, Locales.pick(h, Locales.EN), String.valueOf(h));
        }
    }

    @Test
    void theConfiguredDefaultMustBeALanguageJobmonSpeaks() {
        assertEquals(Locales.ZH_CN, Locales.parse("zh-CN"));
        assertEquals(Locales.ZH_CN, Locales.parse("zh_CN"));
        assertEquals(Locales.EN, Locales.parse("en"));
        assertThrows(IllegalArgumentException.class, () -> Locales.parse("fr"));
        assertEquals("zh-CN", Locales.tag(Locale.SIMPLIFIED_CHINESE));
    }
}
