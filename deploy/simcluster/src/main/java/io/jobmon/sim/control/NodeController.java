package io.jobmon.sim.control;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.jobmon.sim.clock.SimClock;
import io.jobmon.sim.cluster.Fleet;
import io.jobmon.sim.cluster.NodeSpec;
import io.jobmon.sim.cluster.SimNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * The nodes in the API and what changes them: the node lifecycle controller (a node whose kubelet stops posting is
 * marked Unknown and tainted unreachable after the 40 s grace period, its pods NotReady, and deleted by the taint
 * eviction after their 300 s toleration ({@code DisruptionTarget}/{@code DeletionByTaintManager}); a node that comes back is Ready again), the kubelet's pressure conditions
 * (DiskPressure and its taint) and the device plugin's allocatable GPUs.
 */
public final class NodeController {

    static final Duration GRACE = Duration.ofSeconds(40);
    static final Duration TOLERATION = Duration.ofSeconds(300);
    static final String UNREACHABLE = "node.kubernetes.io/unreachable";
    static final String DISK_PRESSURE = "node.kubernetes.io/disk-pressure";

    private final Kube kube;
    private final Fleet fleet;
    private final EventRecorder events;
    private final SimClock clock;
    private final String hostIp;
    private final Duration downtime;
    private Consumer<SimNode> onLost = n -> {
    };
    private Consumer<SimNode> onBack = n -> {
    };

    /** @param downtime how long a lost node stays away */
    public NodeController(Kube kube, Fleet fleet, EventRecorder events, SimClock clock, String hostIp, Duration downtime) {
        this.kube = kube;
        this.fleet = fleet;
        this.events = events;
        this.clock = clock;
        this.hostIp = hostIp;
        this.downtime = downtime;
    }

    /** What the kubelets do when their node goes away and comes back. */
    public void kubelets(Consumer<SimNode> lost, Consumer<SimNode> back) {
        this.onLost = lost;
        this.onBack = back;
    }

    /** Registers every node of the fleet, Ready, as its kubelet would on start, with its kubelet's port. */
    public void registerAll(java.util.function.ToIntFunction<String> kubeletPort) {
        for (SimNode n : fleet.nodes()) {
            kube.create(build(n, kubeletPort.applyAsInt(n.name())));
        }
    }

    Node build(SimNode n, int kubeletPort) {
        NodeSpec s = n.spec();
        String now = EventRecorder.seconds(clock.now());
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("beta.kubernetes.io/arch", "amd64");
        labels.put("beta.kubernetes.io/os", "linux");
        labels.put("kubernetes.io/arch", "amd64");
        labels.put("kubernetes.io/hostname", n.name());
        labels.put("kubernetes.io/os", "linux");
        labels.put("node.kubernetes.io/instance-type", "gpu-" + s.pool() + "-" + s.gpus() + "x");
        labels.put("nvidia.com/gpu.present", "true");
        labels.put("nvidia.com/gpu.product", s.model().productLabel());
        labels.put("nvidia.com/gpu.count", String.valueOf(s.gpus()));
        labels.put("nvidia.com/gpu.memory", String.valueOf(s.model().memoryMiB()));
        labels.put("sim.jobmon.io/pool", s.pool());
        Map<String, Quantity> capacity = new LinkedHashMap<>();
        capacity.put("cpu", new Quantity(String.valueOf(NodeSpec.CPU_MILLIS / 1000)));
        capacity.put("ephemeral-storage", new Quantity(NodeSpec.DISK_BYTES / 1024 + "Ki"));
        capacity.put("memory", new Quantity(NodeSpec.MEMORY_BYTES / 1024 + "Ki"));
        capacity.put("nvidia.com/gpu", new Quantity(String.valueOf(s.gpus())));
        capacity.put("pods", new Quantity(String.valueOf(NodeSpec.MAX_PODS)));
        Map<String, Quantity> allocatable = new LinkedHashMap<>(capacity);
        allocatable.put("cpu", new Quantity((NodeSpec.CPU_MILLIS - 2000) + "m"));
        allocatable.put("memory", new Quantity((NodeSpec.MEMORY_BYTES - (16L << 30)) / 1024 + "Ki"));
        allocatable.put("ephemeral-storage", new Quantity(String.valueOf(NodeSpec.DISK_BYTES * 9 / 10)));
        String machine = UUID.nameUUIDFromBytes(n.name().getBytes()).toString().replace("-", "");
        return new NodeBuilder().withNewMetadata().withName(n.name()).withLabels(labels)
                .addToAnnotations("node.alpha.kubernetes.io/ttl", "0")
                .addToAnnotations("volumes.kubernetes.io/controller-managed-attach-detach", "true").endMetadata()
                .withNewSpec().withPodCIDR(n.podCidr()).withPodCIDRs(n.podCidr()).endSpec()
                .withNewStatus().withCapacity(capacity).withAllocatable(allocatable)
                .addNewAddress().withType("InternalIP").withAddress(hostIp).endAddress()
                .addNewAddress().withType("Hostname").withAddress(n.name()).endAddress()
                .withConditions(conditions(true, false, now))
                .withNewDaemonEndpoints().withNewKubeletEndpoint().withPort(kubeletPort).endKubeletEndpoint().endDaemonEndpoints()
                .withNewNodeInfo().withArchitecture("amd64").withOperatingSystem("linux").withOsImage("Ubuntu 22.04.4 LTS")
                .withKernelVersion("5.15.0-119-generic").withContainerRuntimeVersion("containerd://1.7.22")
                .withKubeletVersion("v1.31.4").withKubeProxyVersion("").withMachineID(machine)
                .withSystemUUID(UUID.nameUUIDFromBytes(machine.getBytes()).toString())
                .withBootID(bootId(n)).endNodeInfo()
                .endStatus().build();
    }

    /** The node's boot id (the journal's _BOOT_ID). */
    public static String bootId(SimNode n) {
        return UUID.nameUUIDFromBytes((n.name() + "/boot").getBytes()).toString();
    }

    /** The node's machine id (the journal's _MACHINE_ID). */
    public static String machineId(SimNode n) {
        return UUID.nameUUIDFromBytes(n.name().getBytes()).toString().replace("-", "");
    }

    private static List<NodeCondition> conditions(boolean ready, boolean diskPressure, String now) {
        List<NodeCondition> c = new ArrayList<>();
        c.add(cond("MemoryPressure", "False", "KubeletHasSufficientMemory", "kubelet has sufficient memory available", now));
        c.add(diskPressure ? cond("DiskPressure", "True", "KubeletHasDiskPressure", "kubelet has disk pressure", now)
                : cond("DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure", now));
        c.add(cond("PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available", now));
        c.add(ready ? cond("Ready", "True", "KubeletReady", "kubelet is posting ready status", now)
                : cond("Ready", "False", "KubeletNotReady", "", now));
        return c;
    }

    private static NodeCondition cond(String type, String status, String reason, String message, String now) {
        return new NodeConditionBuilder().withType(type).withStatus(status).withReason(reason).withMessage(message)
                .withLastHeartbeatTime(now).withLastTransitionTime(now).build();
    }

    /** The node's kubelet stops posting: frozen now, marked by the node controller after the grace period. */
    public void lose(SimNode n) {
        if (!n.reachable()) {
            return;
        }
        n.reachable(false);
        onLost.accept(n);
        clock.schedule(GRACE, () -> markUnknown(n));
        clock.schedule(downtime, () -> back(n));
    }

    private void markUnknown(SimNode n) {
        if (n.reachable()) {
            return;
        }
        String now = EventRecorder.seconds(clock.now());
        kube.updateNodeStatus(n.name(), node -> node.getStatus().getConditions().forEach(c -> {
            c.setStatus("Unknown");
            c.setReason("NodeStatusUnknown");
            c.setMessage("Kubelet stopped posting node status.");
            c.setLastTransitionTime(now);
        }));
        kube.updateNode(n.name(), node -> {
            List<Taint> taints = new ArrayList<>(node.getSpec().getTaints() == null ? List.of() : node.getSpec().getTaints());
            taints.removeIf(t -> UNREACHABLE.equals(t.getKey()));
            taints.add(new TaintBuilder().withKey(UNREACHABLE).withEffect("NoSchedule").withTimeAdded(now).build());
            taints.add(new TaintBuilder().withKey(UNREACHABLE).withEffect("NoExecute").withTimeAdded(now).build());
            node.getSpec().setTaints(taints);
        });
        var nodeRef = kube.node(n.name()).map(EventRecorder.Ref::of).orElseThrow();
        events.record(nodeRef, "Normal", "NodeNotReady", "Node " + n.name() + " status is now: NodeNotReady",
                "node-controller", null);
        events.record(nodeRef, "Normal", "NodeNotReady", "Status condition transitioned, Type: Ready, Status: True -> "
                + "Unknown, Reason: NodeStatusUnknown, Message: Kubelet stopped posting node status.", "node-controller", null);
        for (Pod p : podsOn(n)) {
            kube.updatePodStatus(Kube.key(p), pod -> {
                for (PodCondition c : pod.getStatus().getConditions() == null ? List.<PodCondition>of()
                        : pod.getStatus().getConditions()) {
                    if ("Ready".equals(c.getType()) || "ContainersReady".equals(c.getType())) {
                        c.setStatus("False");
                        c.setLastTransitionTime(now);
                    }
                }
            });
            events.record(EventRecorder.Ref.of(p), "Warning", "NodeNotReady", "Node is not ready", "node-controller", null);
        }
        clock.schedule(TOLERATION, () -> evictFrom(n));
    }

    /** The taint eviction controller: pods tolerating unreachable for 300 s go. */
    private void evictFrom(SimNode n) {
        if (n.reachable()) {
            return;
        }
        for (Pod p : podsOn(n)) {
            if (p.getMetadata().getDeletionTimestamp() != null || Replay.is(p)) {
                continue;
            }
            events.record(EventRecorder.Ref.of(p), "Normal", "TaintManagerEviction",
                    "Marking for deletion Pod " + Kube.key(p), "taint-eviction-controller", null);
            String now = EventRecorder.seconds(clock.now());
            kube.updatePodStatus(Kube.key(p), pod -> {
                List<PodCondition> c = new ArrayList<>(pod.getStatus().getConditions() == null ? List.of()
                        : pod.getStatus().getConditions());
                c.removeIf(x -> "DisruptionTarget".equals(x.getType()));
                c.add(new io.fabric8.kubernetes.api.model.PodConditionBuilder().withType("DisruptionTarget")
                        .withStatus("True").withReason("DeletionByTaintManager")
                        .withMessage("Taint manager: deleting due to NoExecute taint").withLastTransitionTime(now).build());
                pod.getStatus().setConditions(c);
            });
            kube.deletePod(Kube.key(p));
        }
    }

    private void back(SimNode n) {
        if (n.reachable()) {
            return;
        }
        n.reachable(true);
        String now = EventRecorder.seconds(clock.now());
        kube.updateNodeStatus(n.name(), node -> node.getStatus().setConditions(conditions(true, n.diskPressure(), now)));
        kube.updateNode(n.name(), node -> {
            if (node.getSpec().getTaints() != null) {
                node.getSpec().setTaints(node.getSpec().getTaints().stream()
                        .filter(t -> !UNREACHABLE.equals(t.getKey())).toList());
            }
        });
        kube.node(n.name()).ifPresent(node -> events.record(EventRecorder.Ref.of(node), "Normal", "NodeReady",
                "Node " + n.name() + " status is now: NodeReady", "node-controller", null));
        onBack.accept(n);
    }

    /** The kubelet reports disk pressure (or its end): condition, taint, its event. */
    public void diskPressure(SimNode n, boolean on) {
        if (n.diskPressure() == on) {
            return;
        }
        n.diskPressure(on);
        String now = EventRecorder.seconds(clock.now());
        kube.updateNodeStatus(n.name(), node -> node.getStatus().getConditions().stream()
                .filter(c -> "DiskPressure".equals(c.getType())).forEach(c -> {
                    c.setStatus(on ? "True" : "False");
                    c.setReason(on ? "KubeletHasDiskPressure" : "KubeletHasNoDiskPressure");
                    c.setMessage(on ? "kubelet has disk pressure" : "kubelet has no disk pressure");
                    c.setLastTransitionTime(now);
                    c.setLastHeartbeatTime(now);
                }));
        kube.updateNode(n.name(), node -> {
            List<Taint> taints = new ArrayList<>(node.getSpec().getTaints() == null ? List.of() : node.getSpec().getTaints());
            taints.removeIf(t -> DISK_PRESSURE.equals(t.getKey()));
            if (on) {
                taints.add(new TaintBuilder().withKey(DISK_PRESSURE).withEffect("NoSchedule").withTimeAdded(now).build());
            }
            node.getSpec().setTaints(taints);
        });
        kube.node(n.name()).ifPresent(node -> events.record(EventRecorder.Ref.of(node), "Normal",
                on ? "NodeHasDiskPressure" : "NodeHasNoDiskPressure",
                "Node " + n.name() + " status is now: " + (on ? "NodeHasDiskPressure" : "NodeHasNoDiskPressure"),
                "kubelet", n.name()));
    }

    /** The device plugin's count of healthy GPUs is the node's allocatable nvidia.com/gpu. */
    public void gpuHealthChanged(SimNode n) {
        long healthy = n.gpus().stream().filter(g -> g.healthy()).count();
        kube.updateNodeStatus(n.name(), node -> node.getStatus().getAllocatable()
                .put("nvidia.com/gpu", new Quantity(String.valueOf(healthy))));
    }

    List<Pod> podsOn(SimNode n) {
        return kube.pods().stream().filter(p -> n.name().equals(p.getSpec().getNodeName())).toList();
    }
}
