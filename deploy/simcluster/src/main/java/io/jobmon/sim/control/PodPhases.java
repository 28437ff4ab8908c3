package io.jobmon.sim.control;

import io.fabric8.kubernetes.api.model.Pod;

/** Questions about a pod's phase and readiness. */
public final class PodPhases {

    private PodPhases() {
    }

    public static String phase(Pod p) {
        return p.getStatus() == null ? null : p.getStatus().getPhase();
    }

    public static boolean succeeded(Pod p) {
        return "Succeeded".equals(phase(p));
    }

    public static boolean failed(Pod p) {
        return "Failed".equals(phase(p));
    }

    public static boolean terminal(Pod p) {
        return succeeded(p) || failed(p);
    }

    public static boolean running(Pod p) {
        return "Running".equals(phase(p));
    }

    public static boolean bound(Pod p) {
        return p.getSpec() != null && p.getSpec().getNodeName() != null && !p.getSpec().getNodeName().isEmpty();
    }

    public static boolean ready(Pod p) {
        return p.getStatus() != null && p.getStatus().getConditions() != null && p.getStatus().getConditions().stream()
                .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }
}
