package io.jobmon.sim.control;

import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The Job controller's count of a Job's pods and the rule that ends it: Failed once more pods failed than
 * {@code backoffLimit} allows (a pod being deleted before it succeeded counts as failed, as the controller counts
 * it), Complete once {@code completions} pods (or indexes) succeeded.
 */
public final class JobTally {

    /** Where a Job stands. */
    public enum Outcome {
        RUNNING, COMPLETE, FAILED
    }

    private int active;
    private int ready;
    private int terminating;
    private int succeeded;
    private int failed;
    private final SortedSet<Integer> completedIndexes = new TreeSet<>();

    public void countActive(boolean isReady) {
        active++;
        if (isReady) {
            ready++;
        }
    }

    public void countTerminating() {
        terminating++;
    }

    public void countSucceeded(Integer index) {
        succeeded++;
        if (index != null) {
            completedIndexes.add(index);
        }
    }

    public void countFailed() {
        failed++;
    }

    public int active() {
        return active;
    }

    public int ready() {
        return ready;
    }

    public int terminating() {
        return terminating;
    }

    public int succeeded() {
        return succeeded;
    }

    public int failed() {
        return failed;
    }

    public SortedSet<Integer> completedIndexes() {
        return completedIndexes;
    }

    public Outcome outcome(int completions, int backoffLimit, boolean indexed) {
        if (failed > backoffLimit) {
            return Outcome.FAILED;
        }
        int done = indexed ? completedIndexes.size() : succeeded;
        return done >= completions ? Outcome.COMPLETE : Outcome.RUNNING;
    }

    /** The status field {@code completedIndexes}: ranges like {@code 0-2,5}; null when none. */
    public String completedIndexesText() {
        if (completedIndexes.isEmpty()) {
            return null;
        }
        List<String> parts = new ArrayList<>();
        Integer start = null;
        Integer prev = null;
        for (int i : completedIndexes) {
            if (start == null) {
                start = i;
            } else if (i != prev + 1) {
                parts.add(start.equals(prev) ? String.valueOf(start) : start + "-" + prev);
                start = i;
            }
            prev = i;
        }
        parts.add(start.equals(prev) ? String.valueOf(start) : start + "-" + prev);
        return String.join(",", parts);
    }
}
