package io.jobmon.metrics.query;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * A GPU that falls off the bus stops reporting for its pod at once; its Xid comes a scrape later: still the holder's,
 * but not long after, and never before the holding began.
 */
class HoldingsTest {

    static final long FROM = 1_000_000L;
    static final long LAST = 1_600_000L;

    static Holdings.Held held(Long to) {
        return new Holdings.Held("gpu-a800-611", "GPU-1896c611", "5", "GPU-1896c611", "00000000:9D:00.0", "nvidia5",
                "NVIDIA A800-SXM4-80GB", "jobmon-jobs", "w-0", FROM, to);
    }

    @Test
    void anXidAScrapeAfterTheHoldersLastLabelledSampleIsStillTheHolders() {
        Holdings.Held ended = held(LAST);
        assertTrue(Holdings.heldAt(ended, "gpu-a800-611", "5", LAST + 15_000));
        assertTrue(Holdings.heldAt(ended, "gpu-a800-611", "5", LAST + Holdings.AFTER_LAST));
        assertFalse(Holdings.heldAt(ended, "gpu-a800-611", "5", LAST + Holdings.AFTER_LAST + 1));
        assertFalse(Holdings.heldAt(ended, "gpu-a800-611", "5", FROM - 1));
        assertFalse(Holdings.heldAt(ended, "gpu-a800-611", "4", LAST));
        assertTrue(Holdings.heldAt(held(null), "gpu-a800-611", "5", LAST * 10));
        assertArrayEquals(new long[] {FROM, LAST + 1 + Holdings.AFTER_LAST}, ended.range(0, Long.MAX_VALUE));
    }
}
