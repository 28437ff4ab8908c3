package io.jobmon.diagnosis.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.jobmon.contracts.problem.ApiException;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class WindowAndCursorTest {

    private static final Duration MAX = Duration.ofMinutes(30);
    private static final Instant NOW = Instant.parse("2026-07-13T10:00:00Z");

    @Test
    void noBoundsMeansTheLastThirtyMinutes() {
        assertEquals(new Window(NOW.minus(MAX), NOW), Window.of(null, null, MAX, NOW));
    }

    @Test
    void onlyToMeansTheThirtyMinutesBeforeIt() {
        Instant to = NOW.minusSeconds(3600);
        assertEquals(new Window(to.minus(MAX), to), Window.of(null, to, MAX, NOW));
    }

    @Test
    void onlyFromMeansTheThirtyMinutesAfterItButNotPastNow() {
        Instant old = NOW.minusSeconds(7200);
        assertEquals(new Window(old, old.plus(MAX)), Window.of(old, null, MAX, NOW));
        Instant recent = NOW.minusSeconds(600);
        assertEquals(new Window(recent, NOW), Window.of(recent, null, MAX, NOW));
    }

    @Test
    void aWindowOfExactlyThirtyMinutesIsFineAndOneSecondMoreIsNot() {
        Window.of(NOW.minus(MAX), NOW, MAX, NOW);
        ApiException e = assertThrows(ApiException.class, () -> Window.of(NOW.minus(MAX).minusSeconds(1), NOW, MAX, NOW));
        assertEquals("to", e.toProblem().errors().get(0).field());
    }

    @Test
    void fromMustBeBeforeTo() {
        ApiException e = assertThrows(ApiException.class, () -> Window.of(NOW, NOW, MAX, NOW));
        assertEquals("from", e.toProblem().errors().get(0).field());
    }

    @Test
    void aCursorSurvivesTheRoundTripWithNanoseconds() {
        Cursor c = new Cursor(Instant.parse("2026-07-13T10:00:00.123456Z"), "dg-1|odd");
        assertEquals(c, Cursor.decode(c.encode()));
        assertNull(Cursor.decode(null));
        assertThrows(ApiException.class, () -> Cursor.decode("%%%"));
    }
}
