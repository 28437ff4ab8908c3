package io.jobmon.sim.kubelet;

import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodIP;
import io.fabric8.kubernetes.api.model.PodStatus;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the kubelet knows of one pod and reports as its status: phase, conditions (with the time each last changed),
 * the containers' states. Every container of the pod shares the main container's state (sidecars are not played).
 */
final class PodState {

    private record Condition(String status, String reason, String message, String since) {
    }

    String phase = "Pending";
    String reason;
    String message;
    String hostIp;
    String podIp;
    String startTime;
    String image;
    String imageId = "";
    String containerId;
    boolean running;
    int restarts;
    ContainerState state = waiting("ContainerCreating", null);
    ContainerState lastState = new ContainerState();
    private final Map<String, Condition> conditions = new LinkedHashMap<>();

    static ContainerState waiting(String reason, String message) {
        return new ContainerStateBuilder().withNewWaiting().withReason(reason).withMessage(message).endWaiting().build();
    }

    static ContainerState running(String startedAt) {
        return new ContainerStateBuilder().withNewRunning().withStartedAt(startedAt).endRunning().build();
    }

    static ContainerState terminated(int code, String reason, String message, String startedAt, String finishedAt,
            String containerId) {
        return new ContainerStateBuilder().withNewTerminated().withExitCode(code).withReason(reason).withMessage(message)
                .withStartedAt(startedAt).withFinishedAt(finishedAt)
                .withContainerID(containerId == null ? null : "containerd://" + containerId).endTerminated().build();
    }

    /** Sets a condition; its transition time moves only when its status changes. */
    void condition(String type, String status, String reason, String message, String now) {
        Condition old = conditions.get(type);
        String since = old != null && old.status().equals(status) ? old.since() : now;
        conditions.put(type, new Condition(status, reason, message, since));
    }

    /** The pod's conditions for a pod whose containers are (not) ready, as the kubelet's status manager sets them. */
    void readiness(boolean sandbox, boolean ready, String containers, String now) {
        boolean ended = "Succeeded".equals(phase) || "Failed".equals(phase);
        condition("PodReadyToStartContainers", sandbox ? "True" : "False", null, null, now);
        condition("Initialized", "True", null, null, now);
        if (ready) {
            condition("Ready", "True", null, null, now);
            condition("ContainersReady", "True", null, null, now);
        } else {
            String r = ended ? "PodCompleted" : "ContainersNotReady";
            String m = ended ? null : "containers with unready status: [" + containers + "]";
            condition("Ready", "False", r, m, now);
            condition("ContainersReady", "False", r, m, now);
        }
    }

    /** Writes this state into the pod's status, keeping what others set (PodScheduled, DisruptionTarget, QoS). */
    void applyTo(Pod pod) {
        PodStatus s = pod.getStatus() == null ? new PodStatus() : pod.getStatus();
        s.setPhase(phase);
        s.setReason(reason);
        s.setMessage(message);
        s.setHostIP(hostIp);
        s.setHostIPs(hostIp == null ? null : List.of(new io.fabric8.kubernetes.api.model.HostIP(hostIp)));
        s.setPodIP(podIp);
        s.setPodIPs(podIp == null ? null : List.of(new PodIP(podIp)));
        s.setStartTime(startTime);
        List<PodCondition> out = new ArrayList<>();
        if (s.getConditions() != null) {
            s.getConditions().stream().filter(c -> !conditions.containsKey(c.getType())).forEach(out::add);
        }
        conditions.forEach((type, c) -> out.add(new PodConditionBuilder().withType(type).withStatus(c.status())
                .withReason(c.reason()).withMessage(c.message()).withLastTransitionTime(c.since()).build()));
        out.sort(java.util.Comparator.comparingInt(c -> ORDER.indexOf(c.getType()) < 0 ? 99 : ORDER.indexOf(c.getType())));
        s.setConditions(out);
        List<ContainerStatus> statuses = new ArrayList<>();
        pod.getSpec().getContainers().forEach(c -> statuses.add(new ContainerStatusBuilder().withName(c.getName())
                .withImage(c.getImage()).withImageID(imageId)
                .withContainerID(containerId == null ? null : "containerd://" + containerId).withReady(running)
                .withStarted(running).withRestartCount(restarts).withState(state).withLastState(lastState).build()));
        s.setContainerStatuses(statuses);
        pod.setStatus(s);
    }

    private static final List<String> ORDER = List.of("DisruptionTarget", "PodReadyToStartContainers", "Initialized",
            "Ready", "ContainersReady", "PodScheduled");
}
