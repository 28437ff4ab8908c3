package io.jobmon.diagnosis.evidence;

import java.time.Duration;
import java.time.Instant;

/**
 * What a task reads besides its window, from the job's times: the run before the window (metrics at 1-minute steps,
 * keyword searches over the whole run up to the window's end), and the job's last lines when it ended outside the
 * window.
 *
 * @param runFrom where the run starts (its start, else its submission); null when it starts inside the window
 * @param runStepSeconds step of the run-long metrics read: 60, or whole minutes keeping it within the point limit
 * @param endTo the end of the last-lines read (the job's end + 1 min); null when the window holds the end
 */
public record EvidencePlan(Instant windowFrom, Instant windowTo, Instant runFrom, long runStepSeconds, Instant endTo) {

    /** Lines written just after a job ended (the last words of a crash) still belong to it. */
    static final Duration AFTER_END = Duration.ofMinutes(1);

    public static EvidencePlan of(Instant windowFrom, Instant windowTo, Instant submitted, Instant started,
            Instant finished, int maxRunPoints) {
        Instant start = started != null ? started : submitted;
        Instant runFrom = start != null && start.isBefore(windowFrom) ? start : null;
        long step = 60;
        if (runFrom != null) {
            long minutes = Duration.between(runFrom, windowFrom).toMinutes();
            step = 60 * Math.max(1, (minutes + maxRunPoints - 1) / maxRunPoints);
        }
        Instant endTo = null;
        if (finished != null && (finished.isBefore(windowFrom) || finished.plus(AFTER_END).isAfter(windowTo))) {
            endTo = finished.plus(AFTER_END);
        }
        return new EvidencePlan(windowFrom, windowTo, runFrom, step, endTo);
    }

    /** Where the keyword searches start: the run's start, else the window's. */
    public Instant searchFrom() {
        return runFrom != null ? runFrom : windowFrom;
    }
}
