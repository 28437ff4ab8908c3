package io.jobmon.diagnosis.engine;

/**
 * What should happen next with a diagnosed job (contract field {@code action}).
 * Serialised by Jackson as the constant name.
 */
public enum Action {
    /** Restart the training from its checkpoint. */
    RESTART,
    /** Stop it: a restart would fail the same way and burn quota. */
    TERMINATE,
    /** Resubmit in debug mode to investigate. */
    RESUBMIT_DEBUG,
    /** Nothing the user can fix yet: keep waiting. */
    WAIT,
    /** Platform or hardware side problem. */
    CONTACT_ADMIN,
    /** Healthy: nothing to do. */
    NONE
}
