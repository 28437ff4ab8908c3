package io.jobmon.events.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The formatter-free reading of Kubernetes times agrees with {@link Instant#parse} and refuses what is not a time. */
class K8sTimeTest {

    @Test
    void readsTimeAndMicroTimeExactlyAsInstantParseDoes() {
        Random random = new Random(42);
        for (int i = 0; i < 20_000; i++) {
            Instant t = Instant.ofEpochSecond(random.nextLong(0, 4_102_444_800L), random.nextInt(1_000_000_000));
            String seconds = t.truncatedTo(ChronoUnit.SECONDS).toString();
            String micros = t.truncatedTo(ChronoUnit.MICROS).toString();
            assertEquals(Instant.parse(seconds), K8sTime.parse(seconds), seconds);
            assertEquals(Instant.parse(micros), K8sTime.parse(micros), micros);
        }
        assertEquals(Instant.parse("2024-02-29T23:59:59.5Z"), K8sTime.parse("2024-02-29T23:59:59.5Z"));
        assertEquals(Instant.parse("2025-03-01T08:00:00.123456789Z"), K8sTime.parse("2025-03-01T08:00:00.123456789Z"));
    }

    @Test
    void otherRfc3339LayoutsStillParse() {
        assertEquals(Instant.parse("2025-03-01T00:00:00Z"), K8sTime.parse("2025-03-01T08:00:00+08:00"));
    }

    @Test
    void whatIsNotATimeIsNull() {
        for (String bad : new String[] {"", "yesterday", "2025-02-29T00:00:00Z", "2025-13-01T00:00:00Z",
            "2025-01-01T00:60:00Z", "2025-01-01 00:00:00Z",
            "2025-01-0xT00:00:00Z", "2025-01-01T00:00:00.1234567890Z"}) {
            assertNull(K8sTime.parse(bad), bad);
        }
    }
}
