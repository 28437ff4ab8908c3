package io.jobmon.logs.intake;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class TimesTest {

    @Test
    void rfc3339FormsOfTheShippersParseToTheNanosecond() {
        assertEquals(Times.nanos(Instant.parse("2026-07-13T10:14:59.123456789Z")), Times.parse("2026-07-13T10:14:59.123456789Z"));
        assertEquals(Times.nanos(Instant.parse("2026-07-13T10:14:59Z")), Times.parse("2026-07-13T10:14:59Z"));
        assertEquals(Times.nanos(Instant.parse("2026-07-13T08:14:59.5Z")), Times.parse("2026-07-13T10:14:59.5+02:00"));
        assertEquals(Times.nanos(Instant.parse("2024-02-29T23:59:59.000001Z")), Times.parse("2024-02-29T23:59:59.000001Z"));
        assertEquals(Times.nanos(Instant.parse("1999-12-31T00:00:00Z")), Times.parse("1999-12-31T00:00:00Z"));
    }

    @Test
    void epochSecondsKeepTheirFractionDigits() {
        assertEquals(1_783_937_699_123_456_000L, Times.parse("1783937699.123456"));
        assertEquals(Long.MIN_VALUE, Times.parse("soon"));
    }
}
