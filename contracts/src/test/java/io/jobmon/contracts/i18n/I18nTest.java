package io.jobmon.contracts.i18n;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.jobmon.contracts.api.Limits;
import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.problem.ApiException;
import io.jobmon.contracts.problem.Problem;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Problems are written in the reader's language; their type and field names never change with it. */
class I18nTest {

    final I18n i18n = I18n.defaults();

    static Problem thrown(Runnable r) {
        try {
            r.run();
        } catch (ApiException e) {
            return e.toProblem();
        }
        throw new AssertionError("no ApiException");
    }

    @Test
    void aBadLimitReadsInChineseWithTheSameTypeFieldAndCode() {
        Problem raw = thrown(() -> Limits.parse("abc"));
        Problem zh = raw.localize(i18n, Locales.ZH_CN);
        Problem en = raw.localize(i18n, Locales.EN);
        assertEquals("请求无效", zh.title());
        assertEquals("Bad Request", en.title());
        assertEquals("limit: 必须是 1 到 500 之间的整数", zh.detail());
        assertEquals("limit: must be a whole number from 1 to 500", en.detail());
        assertEquals(en.type(), zh.type());
        assertEquals("https://jobmon.io/problems/invalid-request", zh.type());
        assertEquals("field.limit", zh.errors().get(0).code());
        assertEquals("limit", zh.errors().get(0).field());
    }

    @Test
    void severalInvalidFieldsAreListedInTheDetail() {
        Problem p = ApiException.badRequest(List.of(Problem.FieldError.of("from", "field.time"),
                Problem.FieldError.of("to", "field.time"))).toProblem().localize(i18n, Locales.ZH_CN);
        assertEquals("请求无效：from, to", p.detail());
        assertEquals("必须是 RFC 3339 时间，例如 2026-01-31T08:00:00Z", p.errors().get(1).message());
    }

    @Test
    void aLiteralTextStaysAsItIsButTheTitleIsTranslated() {
        Problem p = ApiException.conflict("job j-1 is RUNNING").toProblem().localize(i18n, Locales.ZH_CN);
        assertEquals("状态冲突", p.title());
        assertEquals("job j-1 is RUNNING", p.detail());
    }

    @Test
    void theArgumentsOfAKeyAreNotPartOfTheBody() {
        String body = CloudEvents.toJson(thrown(() -> Limits.parse("0")).localize(i18n, Locales.EN));
        assertEquals(-1, body.indexOf("\"args\""), body);
        assertEquals(-1, body.indexOf("detailText"), body);
    }

    @Test
    void anUnknownKeyRendersAsItselfNeverFails() {
        assertEquals("no.such.key 1", i18n.texts(Locales.ZH_CN).text("no.such.key", 1));
        assertNull(i18n.texts(Locales.EN).text((Text) null));
    }

    @Test
    void placeholdersAreReplacedLiterallyApostrophesIncluded() {
        assertEquals("must be before 'to'", i18n.texts(Locales.EN).text("field.before", "to"));
        assertEquals("必须早于 'to'", i18n.texts(Locales.ZH_CN).text("field.before", "to"));
    }
}
