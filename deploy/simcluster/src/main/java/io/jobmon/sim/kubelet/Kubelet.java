package io.jobmon.sim.kubelet;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.jobmon.sim.clock.SimClock;
import io.jobmon.sim.cluster.Fleet;
import io.jobmon.sim.cluster.GpuDevice;
import io.jobmon.sim.cluster.SimNode;
import io.jobmon.sim.control.EventRecorder;
import io.jobmon.sim.control.JobPods;
import io.jobmon.sim.control.Kube;
import io.jobmon.sim.control.NodeController;
import io.jobmon.sim.control.PodPhases;
import io.jobmon.sim.control.Replay;
import io.jobmon.sim.logs.ContainerRef;
import io.jobmon.sim.logs.LogSink;
import io.jobmon.sim.scenario.Scenarios;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;

/**
 * The kubelets of every node (one object): each pod bound to a node of the fleet is played by a {@link PodRun} with
 * the scenario its labels ask for; a pod marked deleted is stopped; a lost node's pods freeze and, when the node
 * comes back, are found gone. The node-level things a pod's script triggers (a lost node, disk pressure, an
 * unhealthy GPU, a preempting pod) are handed to the {@link NodeController} and the API.
 */
public final class Kubelet {

    /** How the kubelets run: the healthy run's length, an image pull's time, the time scale, the node IP. */
    public record Settings(Duration runTime, Duration pullTime, double scale, String hostIp, Duration gpuRecovery,
            Duration servingTime) {
    }

    private final Kube kube;
    private final Fleet fleet;
    private final EventRecorder events;
    private final LogSink logs;
    private final SimClock clock;
    private final NodeController nodes;
    private final SystemPods systemPods;
    private final Settings settings;
    private final Random random;
    private final Map<String, PodRun> runs = new HashMap<>();

    public Kubelet(Kube kube, Fleet fleet, EventRecorder events, LogSink logs, SimClock clock, NodeController nodes,
            SystemPods systemPods, Settings settings, Random random) {
        this.kube = kube;
        this.fleet = fleet;
        this.events = events;
        this.logs = logs;
        this.clock = clock;
        this.nodes = nodes;
        this.systemPods = systemPods;
        this.settings = settings;
        this.random = random;
        kube.onChange(this::onChange);
        nodes.kubelets(this::freeze, this::thaw);
    }

    private void onChange(Kube.Change c) {
        if (!(c.object() instanceof Pod pod) || Replay.is(pod) || SystemPods.isSystem(pod)) {
            return;
        }
        String uid = pod.getMetadata().getUid();
        if (c.deleted()) {
            PodRun run = runs.remove(uid);
            if (run != null) {
                run.gone();
            }
            return;
        }
        SimNode node = fleet.node(pod.getSpec().getNodeName()).orElse(null);
        if (node == null || !node.reachable()) {
            return;
        }
        PodRun run = runs.get(uid);
        if (run == null) {
            if (PodPhases.bound(pod) && !PodPhases.terminal(pod) && pod.getMetadata().getDeletionTimestamp() == null) {
                PodRun r = new PodRun(this, pod, node, Scenarios.named(Scenarios.nameOf(pod)));
                runs.put(uid, r);
                clock.execute(r::begin);
            }
            return;
        }
        run.observed(pod);
        if (pod.getMetadata().getDeletionTimestamp() != null) {
            clock.execute(run::stop);
        }
    }

    private void freeze(SimNode node) {
        runsOn(node).forEach(PodRun::freeze);
    }

    private void thaw(SimNode node) {
        runsOn(node).forEach(PodRun::thaw);
    }

    private java.util.List<PodRun> runsOn(SimNode node) {
        return runs.values().stream().filter(r -> r.node() == node).toList();
    }

    // ---- for the pods' runs ------------------------------------------------------------------------------------

    Kube kube() {
        return kube;
    }

    Fleet fleet() {
        return fleet;
    }

    EventRecorder events() {
        return events;
    }

    LogSink logs() {
        return logs;
    }

    SimClock clock() {
        return clock;
    }

    Random random() {
        return random;
    }

    Duration runTime() {
        return settings.runTime();
    }

    Duration pullTime() {
        return settings.pullTime();
    }

    double scale() {
        return settings.scale();
    }

    String hostIp() {
        return settings.hostIp();
    }

    ContainerRef devicePlugin(SimNode node) {
        return systemPods.devicePlugin(node);
    }

    /** The pods of the pod's Job (its parallelism), 1 for a pod of its own. */
    int replicasOf(Pod pod) {
        String owner = Kube.ownerUid(pod);
        return owner == null ? 1 : kube.jobs().stream().filter(j -> owner.equals(j.getMetadata().getUid())).findFirst()
                .map(j -> j.getSpec().getParallelism() == null ? 1 : j.getSpec().getParallelism()).orElse(1);
    }

    void loseNode(SimNode node) {
        nodes.lose(node);
    }

    void diskPressure(SimNode node, boolean on) {
        nodes.diskPressure(node, on);
    }

    void nodeEvents(SimNode node, String type, String reason, String message) {
        kube.node(node.name()).ifPresent(n -> events.record(EventRecorder.Ref.of(n), type, reason, message, "kubelet",
                node.name()));
    }

    /** The device plugin marks the GPU unhealthy (allocatable drops); it is healthy again after a while. */
    void unhealthy(SimNode node, GpuDevice gpu) {
        gpu.healthy(false);
        nodes.gpuHealthChanged(node);
        clock.schedule(settings.gpuRecovery(), () -> {
            gpu.healthy(true);
            gpu.xid(0);
            nodes.gpuHealthChanged(node);
        });
    }

    /**
     * An inference server of higher priority, pinned to this node, that needs the node's free GPUs and {@code gpus}
     * more (the victim's share): it never fits beside the victim, so the scheduler preempts (lowest priority, newest
     * first). It serves for a while, then is deleted (scaled down).
     */
    void preemptorFor(SimNode node, int victimGpus) {
        int gpus = Math.min(node.gpus().size(), fleet.freeGpus(node) + Math.max(1, victimGpus));
        String hash = Integer.toHexString(random.nextInt()).substring(0, 5) + "b8f4";
        String name = "llm-serving-eval-" + hash + "-" + JobPods.suffix(random);
        Map<String, Quantity> res = Map.of("nvidia.com/gpu", new Quantity(String.valueOf(Math.max(1, gpus))),
                "cpu", new Quantity("8"), "memory", new Quantity("64Gi"));
        Pod pod = new PodBuilder().withNewMetadata().withName(name).withNamespace("inference")
                .addToLabels("app", "llm-serving-eval").addToLabels("pod-template-hash", hash)
                .addToLabels(Scenarios.LABEL_ALT, Scenarios.SERVING).endMetadata()
                .withNewSpec().withPriorityClassName(io.jobmon.sim.SimBootstrap.SERVING_PRIORITY_CLASS)
                .withPriority(io.jobmon.sim.SimBootstrap.SERVING_PRIORITY).withSchedulerName("default-scheduler")
                .withRestartPolicy("Always").addToNodeSelector("kubernetes.io/hostname", node.name())
                .addNewContainer().withName("vllm").withImage("vllm/vllm-openai:v0.6.3").withImagePullPolicy("IfNotPresent")
                .withNewResources().withRequests(res).withLimits(res).endResources().endContainer().endSpec()
                .withNewStatus().withPhase("Pending").withQosClass("Guaranteed").endStatus().build();
        kube.create(pod);
        String key = Kube.key(pod);
        clock.schedule(settings.servingTime(), () -> {
            if (kube.pod(key).isPresent()) {
                kube.deletePod(key);
            }
        });
    }
}
