package io.jobmon.diagnosis.engine;

/**
 * Precedence groups of categories, strongest root cause first. A decisive finding of an earlier
 * group beats any finding of a later one: a node failure ({@link #INFRASTRUCTURE}) beats the
 * OOMKilled and NCCL timeouts it causes ({@link #CRASH}).
 */
public enum CategoryGroup {
    /** The platform took the pod or the GPU away: node failure, GPU hardware, preemption, eviction. */
    INFRASTRUCTURE,
    /** The pod could not be created, scheduled or started. */
    PRESTART,
    /** The program crashed. */
    CRASH,
    /** The program runs but behaves badly: hang, throttling, slow, data-bound. */
    BEHAVIOUR,
    /** Conclusions without a finding: healthy, unknown. */
    OUTCOME
}
