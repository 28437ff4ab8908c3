package io.jobmon.events.status;

import io.jobmon.events.k8s.PodView;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Everything known about one job's workload: its pods (deleted ones included, with their last state), the
 * latest signal events, and whether job-service asked to stop it (from {@code jobmon.job.changes}).
 */
public record JobFacts(Collection<PodView> pods, Map<String, Signal> signals, boolean stopRequested) {

    public JobFacts {
        pods = pods == null ? List.of() : pods;
        signals = signals == null ? Map.of() : signals;
    }

    public Signal signal(String kind, String name, String reason) {
        return signals.get(kind + "/" + name + "/" + reason);
    }

    public Signal podSignal(PodView pod, String reason) {
        return signal("Pod", pod.name(), reason);
    }

    /** The latest signal of that reason about the job's batch/v1 Job(s). */
    public Signal jobSignal(String reason) {
        Signal found = null;
        for (Signal s : signals.values()) {
            if ("Job".equals(s.objectKind()) && reason.equals(s.reason())
                    && (found == null || s.time() != null && found.time() != null && s.time().isAfter(found.time()))) {
                found = s;
            }
        }
        return found;
    }
}
