package io.jobmon.diagnosis.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Analyses are admitted by the heap they need; a request that does not fit is refused, never queued into an OOM. */
class AnalysisAdmissionTest {

    static final long MB = 1024 * 1024;

    @Test
    void eightLargeBundlesOnA256MbHeapRunOneAtATime() {
        // the burst: 8 × 26 MB with a 32 MB limit on a 256 MB heap (budget 60 %: 153.6 MB), factor 7
        AnalysisAdmission admission = new AnalysisAdmission(32 * MB, (long) (256 * MB * 0.6), 7);
        List<AnalysisAdmission.Reservation> admitted = new ArrayList<>();
        int refused = 0;
        for (int i = 0; i < 8; i++) {
            Optional<AnalysisAdmission.Reservation> r = admission.tryReserve(26 * MB);
            if (r.isPresent()) {
                admitted.add(r.get());
            } else {
                refused++;
            }
        }
        assertEquals(1, admitted.size(), "one 26 MB analysis needs more than the budget: it runs alone");
        assertEquals(7, refused);
        admitted.get(0).release();
        assertTrue(admission.tryReserve(26 * MB).isPresent(), "admitted again once the first one ended");
    }

    @Test
    void smallBundlesShareTheBudget() {
        AnalysisAdmission admission = new AnalysisAdmission(32 * MB, 100 * MB, 7);
        int admitted = 0;
        while (admission.tryReserve(MB).isPresent()) {
            admitted++;
        }
        assertEquals(14, admitted, "100 MB / 7 MB");
        assertEquals(98 * MB, admission.reservedBytes());
    }

    @Test
    void aBodyWithoutLengthCountsAsTheLimitAndAReleaseCountsOnce() {
        AnalysisAdmission admission = new AnalysisAdmission(2 * MB, 100 * MB, 7);
        AnalysisAdmission.Reservation r = admission.tryReserve(-1).orElseThrow();
        assertEquals(14 * MB, r.bytes());
        r.release();
        r.release();
        assertEquals(0, admission.reservedBytes());
    }
}
