package io.jobmon.diagnosis.analysis;

import io.jobmon.diagnosis.config.DiagnosisConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Admits {@code /analyze} requests by the heap they will need, before their body is read: a bundle of {@code n} bytes
 * needs about {@code memory-factor × n} while it is held, parsed and analysed (measured by
 * {@code bench/AnalyzeMemoryProbe}: the body and its copy, the JSON tree, the bundle), and all admitted analyses
 * together stay within {@code memory-budget} (by default 60 % of the maximum heap). One analysis is always possible:
 * a need above the budget is counted as the whole budget. A request that does not fit is refused at once (503 with
 * {@code Retry-After}), so a burst of large bundles gets clear answers instead of exhausting the heap.
 */
@ApplicationScoped
public class AnalysisAdmission {

    /** A bundle without a declared length (chunked) may be as large as the limit. */
    private final long maxBundle;
    private final long budgetKb;
    private final double factor;
    private final Semaphore permits;

    @Inject
    public AnalysisAdmission(DiagnosisConfig config) {
        this(config.analyze().maxBundleSize().asLongValue(),
                config.analyze().memoryBudget().map(m -> m.asLongValue())
                        .orElse((long) (Runtime.getRuntime().maxMemory() * 0.6)),
                config.analyze().memoryFactor());
    }

    AnalysisAdmission(long maxBundle, long budgetBytes, double factor) {
        this.maxBundle = maxBundle;
        this.budgetKb = Math.max(1, Math.min(Integer.MAX_VALUE, budgetBytes / 1024));
        this.factor = factor;
        this.permits = new Semaphore((int) budgetKb);
    }

    /** One admitted analysis' share of the budget; release it once, when the analysis is over. */
    public final class Reservation {
        private final int kb;
        private final AtomicBoolean released = new AtomicBoolean();

        private Reservation(int kb) {
            this.kb = kb;
        }

        public void release() {
            if (released.compareAndSet(false, true)) {
                permits.release(kb);
            }
        }

        public long bytes() {
            return kb * 1024L;
        }
    }

    /**
     * @param declaredBytes the request's {@code Content-Length}; negative when not declared
     * @return the reservation, or empty when the analyses already admitted leave too little room
     */
    public Optional<Reservation> tryReserve(long declaredBytes) {
        int kb = need(declaredBytes);
        return permits.tryAcquire(kb) ? Optional.of(new Reservation(kb)) : Optional.empty();
    }

    /** The budget share a request of {@code declaredBytes} needs, in KB (at least 1, at most the budget). */
    int need(long declaredBytes) {
        long body = declaredBytes < 0 ? maxBundle : Math.min(declaredBytes, maxBundle);
        long kb = (long) Math.ceil(body * factor / 1024.0);
        return (int) Math.max(1, Math.min(budgetKb, kb));
    }

    /** Bytes of the budget held by admitted analyses now. */
    public long reservedBytes() {
        return (budgetKb - permits.availablePermits()) * 1024L;
    }

    public long budgetBytes() {
        return budgetKb * 1024L;
    }
}
