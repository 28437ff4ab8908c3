package io.jobmon.jobs.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class DurationsTest {

    private static final Instant T0 = Instant.parse("2026-07-06T09:30:00Z");

    @Test
    void humanFormKeepsTheTwoLargestUnits() {
        assertEquals("0s", Durations.human(0));
        assertEquals("45s", Durations.human(45));
        assertEquals("3m 5s", Durations.human(185));
        assertEquals("18m", Durations.human(18 * 60));
        assertEquals("2h 13m", Durations.human(2 * 3600 + 13 * 60 + 59));
        assertEquals("2h", Durations.human(7200));
        assertEquals("3d 4h", Durations.human(3 * 86400 + 4 * 3600 + 120));
        assertEquals("0s", Durations.human(-5));
    }

    @Test
    void queueTimeGrowsUntilStartAndStopsAtAnEndWithoutStart() {
        Instant now = T0.plusSeconds(600);
        assertEquals(600, Durations.queueSeconds(T0, null, null, now));
        assertEquals(60, Durations.queueSeconds(T0, T0.plusSeconds(60), null, now));
        assertEquals(90, Durations.queueSeconds(T0, null, T0.plusSeconds(90), now));
    }

    @Test
    void runTimeIsZeroBeforeStartAndLiveUntilTheEnd() {
        Instant now = T0.plusSeconds(600);
        assertEquals(0, Durations.runSeconds(null, null, now));
        assertEquals(540, Durations.runSeconds(T0.plusSeconds(60), null, now));
        assertEquals(100, Durations.runSeconds(T0.plusSeconds(60), T0.plusSeconds(160), now));
    }

    @Test
    void gpuSpecShowsTheGpusTheJobHolds() {
        assertEquals("2*A800", GpuSpec.format(2, 1, "A800"));
        assertEquals("16*H100", GpuSpec.format(2, 8, "H100"));
        assertEquals("4", GpuSpec.format(1, 4, null));
        assertNull(GpuSpec.format(3, 0, "A800"));
    }

    @Test
    void jobIdsAreValidKubernetesNamesAndDistinct() {
        String a = JobIds.next();
        String b = JobIds.next();
        org.junit.jupiter.api.Assertions.assertTrue(a.matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?"), a);
        org.junit.jupiter.api.Assertions.assertNotEquals(a, b);
    }
}
