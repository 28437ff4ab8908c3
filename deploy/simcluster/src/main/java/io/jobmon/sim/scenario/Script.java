package io.jobmon.sim.scenario;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What one start of a container does: how its image pull and start go, then timed steps relative to its start.
 * Built with a cursor: {@code at}/{@code after} move it, the step methods add at it.
 */
public final class Script {

    /** How the image pull goes. */
    public enum Pull {
        OK, NOT_FOUND
    }

    /** A step at an offset from the container's start. */
    public record Timed(Duration at, Step step) {
    }

    private Pull pull = Pull.OK;
    private String startError;
    private String mountError;
    private final List<Timed> steps = new ArrayList<>();
    private Duration cursor = Duration.ZERO;

    public Pull pull() {
        return pull;
    }

    public Script pull(Pull p) {
        pull = p;
        return this;
    }

    /** The runtime cannot start the process (runc's message); null: it starts. */
    public String startError() {
        return startError;
    }

    public Script startError(String message) {
        startError = message;
        return this;
    }

    /** A volume cannot be mounted (the kubelet's FailedMount message); null: mounts fine. */
    public String mountError() {
        return mountError;
    }

    public Script mountError(String message) {
        mountError = message;
        return this;
    }

    /** The steps, in time order (stable for equal times). */
    public List<Timed> steps() {
        List<Timed> sorted = new ArrayList<>(steps);
        sorted.sort(Comparator.comparing(Timed::at));
        return sorted;
    }

    public Duration cursor() {
        return cursor;
    }

    public Script at(Duration offset) {
        cursor = offset;
        return this;
    }

    public Script after(Duration d) {
        cursor = cursor.plus(d);
        return this;
    }

    public Script step(Step s) {
        steps.add(new Timed(cursor, s));
        return this;
    }

    public Script out(String line) {
        return step(new Step.Log("stdout", line));
    }

    public Script err(String line) {
        return step(new Step.Log("stderr", line));
    }

    /** Lines on stderr, a millisecond apart (a traceback printed at once). */
    public Script errLines(List<String> lines) {
        for (String l : lines) {
            err(l);
            after(Duration.ofMillis(1));
        }
        return this;
    }

    public Script load(io.jobmon.sim.telemetry.GpuLoad l) {
        return step(new Step.Load(l));
    }

    public Script exit(int code, String reason) {
        return step(new Step.Exit(code, reason, null));
    }
}
