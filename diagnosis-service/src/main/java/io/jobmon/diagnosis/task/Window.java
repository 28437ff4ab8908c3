package io.jobmon.diagnosis.task;

import io.jobmon.contracts.problem.ApiException;
import java.time.Duration;
import java.time.Instant;

/**
 * The evidence window of a task: at most {@code max} long; without bounds the last {@code max} of the job's run (up
 * to now, or to a minute after it ended), with only {@code from} the {@code max} after it (not past now), with only
 * {@code to} the {@code max} before it.
 */
public record Window(Instant from, Instant to) {

    /** Lines and events of the minute after a job ended (the last words of a crash) belong to its last window. */
    public static final Duration AFTER_END = Duration.ofMinutes(1);

    /** The window asked for; without bounds, the last {@code max} of the run of a job that ended at {@code finished}. */
    public static Window ofRun(Instant from, Instant to, Duration max, Instant now, Instant finished) {
        if (from == null && to == null && finished != null && finished.plus(AFTER_END).isBefore(now)) {
            return of(null, finished.plus(AFTER_END), max, now);
        }
        return of(from, to, max, now);
    }

    public static Window of(Instant from, Instant to, Duration max, Instant now) {
        if (from == null && to == null) {
            return new Window(now.minus(max), now);
        }
        if (from == null) {
            return new Window(to.minus(max), to);
        }
        if (to == null) {
            Instant end = from.plus(max);
            return new Window(from, end.isAfter(now) && from.isBefore(now) ? now : end);
        }
        if (!from.isBefore(to)) {
            throw ApiException.invalid("from", "field.before", "to");
        }
        if (Duration.between(from, to).compareTo(max) > 0) {
            throw ApiException.invalid("to", "diagnosis.window-max", max.toMinutes());
        }
        return new Window(from, to);
    }
}
