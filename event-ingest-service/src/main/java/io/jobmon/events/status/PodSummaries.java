package io.jobmon.events.status;

import io.jobmon.contracts.events.PodSummary;
import io.jobmon.events.k8s.ContainerView;
import io.jobmon.events.k8s.PodView;
import java.util.ArrayList;
import java.util.List;

/** A pod as {@code jobmon.job.status} summarises it for the job list and detail. */
final class PodSummaries {

    private PodSummaries() {
    }

    static PodSummary of(PodView p) {
        List<PodSummary.ContainerSummary> containers = new ArrayList<>();
        for (ContainerView c : p.containers()) {
            if (!c.init()) {
                PodSummary.LastState last = c.lastReason() == null && c.lastExitCode() == null ? null
                        : new PodSummary.LastState(c.lastReason(), c.lastExitCode(), c.lastFinishedAt());
                containers.add(new PodSummary.ContainerSummary(c.name(), c.state(), c.reason(), c.exitCode(),
                        c.restartCount(), last));
            }
        }
        List<PodSummary.Condition> conditions = new ArrayList<>();
        for (PodView.Condition c : p.conditions()) {
            if (c.type() != null && c.status() != null) {
                conditions.add(new PodSummary.Condition(c.type(), c.status(), c.reason(), c.message(),
                        c.lastTransitionTime()));
            }
        }
        String phase = p.deleted() ? "Deleted" : p.phase();
        return new PodSummary(p.name(), p.namespace(), p.nodeName(), phase, p.reason(), containers, conditions);
    }
}
