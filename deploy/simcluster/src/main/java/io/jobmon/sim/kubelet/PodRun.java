package io.jobmon.sim.kubelet;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.jobmon.sim.clock.SimClock;
import io.jobmon.sim.cluster.Fleet;
import io.jobmon.sim.cluster.GpuDevice;
import io.jobmon.sim.cluster.NodeSpec;
import io.jobmon.sim.cluster.SimNode;
import io.jobmon.sim.control.EventRecorder;
import io.jobmon.sim.control.Kube;
import io.jobmon.sim.logs.ContainerRef;
import io.jobmon.sim.scenario.Run;
import io.jobmon.sim.scenario.Scenario;
import io.jobmon.sim.scenario.Script;
import io.jobmon.sim.scenario.Step;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The kubelet's work on one pod: pull the image, start the container, play its scenario's script (log lines,
 * journal lines, GPU load, host figures), end it, restart it as its restartPolicy says, stop it when the pod is
 * deleted, evict it under disk pressure. Every status change is written to the API as the kubelet writes it.
 */
final class PodRun {

    enum Phase {
        CREATING, RUNNING, ENDED, STOPPING, FROZEN, GONE
    }

    private final Kubelet k;
    private final String key;
    private Pod pod;
    private final SimNode node;
    private final Container main;
    private final Scenario scenario;
    private final PodState st = new PodState();
    private final List<SimClock.Timer> timers = new ArrayList<>();
    private Phase phase = Phase.CREATING;
    private Script script;
    private Instant startedAt;
    private int pullFailures;
    private int crashes;
    private final StepEffects effects;

    PodRun(Kubelet k, Pod pod, SimNode node, Scenario scenario) {
        this.k = k;
        this.key = Kube.key(pod);
        this.pod = pod;
        this.node = node;
        this.main = pod.getSpec().getContainers().get(0);
        this.scenario = scenario;
        st.image = main.getImage();
        this.effects = new StepEffects(k, node, key, this::gpus, this::logRef);
    }

    Phase phase() {
        return phase;
    }

    String name() {
        return pod.getMetadata().getName();
    }

    SimNode node() {
        return node;
    }

    void observed(Pod p) {
        pod = p;
    }

    // ---- start-up --------------------------------------------------------------------------------------------

    void begin() {
        String now = now();
        st.hostIp = k.hostIp();
        st.podIp = node.nextPodIp();
        st.startTime = now;
        st.readiness(true, false, main.getName(), now);
        write();
        script = scenario.script().apply(run(k.clock().now()));
        if (script.mountError() != null) {
            failMount(0);
            return;
        }
        pull();
    }

    private void failMount(int attempt) {
        String volume = pod.getSpec().getVolumes() == null || pod.getSpec().getVolumes().isEmpty() ? "datasets"
                : pod.getSpec().getVolumes().get(0).getName();
        String target = "/var/lib/kubelet/pods/" + pod.getMetadata().getUid() + "/volumes/kubernetes.io~nfs/" + volume;
        event(ref(), "Warning", "FailedMount", "MountVolume.SetUp failed for volume \"" + volume + "\" : "
                + script.mountError().replace("%TARGET%", target));
        if (attempt % 4 == 3) {
            event(ref(), "Warning", "FailedMount", "Unable to attach or mount volumes: unmounted volumes=[" + volume
                    + "], unattached volumes=[" + volume + " kube-api-access-" + name().substring(name().length() - 5)
                    + "]: timed out waiting for the condition");
        }
        later(Duration.ofSeconds(attempt < 3 ? 8L << attempt : 127), () -> failMount(attempt + 1));
    }

    private void pull() {
        String image = main.getImage();
        boolean always = "Always".equals(main.getImagePullPolicy());
        if (node.hasImage(image) && !always && script.pull() == Script.Pull.OK) {
            event(container(), "Normal", "Pulled", "Container image \"" + image + "\" already present on machine");
            create();
            return;
        }
        event(container(), "Normal", "Pulling", "Pulling image \"" + image + "\"");
        Duration took = script.pull() == Script.Pull.OK ? k.pullTime() : Duration.ofMillis(1_500 + k.random().nextInt(1000));
        later(took, () -> {
            if (script.pull() == Script.Pull.OK) {
                node.pulled(image);
                event(container(), "Normal", "Pulled", "Successfully pulled image \"" + image + "\" in "
                        + Images.goDuration(took) + " (" + Images.goDuration(took.plusMillis(4)) + " including waiting)."
                        + " Image size: " + Images.size(image) + " bytes.");
                create();
            } else {
                pullFailed(image);
            }
        });
    }

    private void pullFailed(String image) {
        String error = "rpc error: code = NotFound desc = failed to pull and unpack image \"" + image
                + "\": failed to resolve reference \"" + image + "\": " + image + ": not found";
        event(container(), "Warning", "Failed", "Failed to pull image \"" + image + "\": " + error);
        event(container(), "Warning", "Failed", "Error: ErrImagePull");
        st.state = PodState.waiting("ErrImagePull", error);
        write();
        later(Duration.ofSeconds(1), () -> {
            event(container(), "Normal", "BackOff", "Back-off pulling image \"" + image + "\"");
            event(container(), "Warning", "Failed", "Error: ImagePullBackOff");
            st.state = PodState.waiting("ImagePullBackOff", "Back-off pulling image \"" + image + "\"");
            write();
            later(backoff(pullFailures++), this::pull);
        });
    }

    private void create() {
        event(container(), "Normal", "Created", "Created container " + main.getName());
        st.imageId = Images.imageId(main.getImage());
        st.containerId = Images.containerId(k.random());
        if (script.startError() != null) {
            String message = script.startError();
            event(container(), "Warning", "Failed", "Error: " + message);
            end(128, "StartError", message, now());
            return;
        }
        start();
    }

    private void start() {
        event(container(), "Normal", "Started", "Started container " + main.getName());
        startedAt = k.clock().now();
        phase = Phase.RUNNING;
        st.phase = "Running";
        st.running = true;
        st.state = PodState.running(EventRecorder.seconds(startedAt));
        st.readiness(true, true, main.getName(), now());
        write();
        for (GpuDevice g : gpus()) {
            g.hold(new GpuDevice.Holder(pod.getMetadata().getNamespace(), name(), main.getName()), startedAt);
        }
        script = scenario.script().apply(run(startedAt));
        play(script.steps(), 0, Duration.ZERO);
    }

    // ---- the script --------------------------------------------------------------------------------------------

    private void play(List<Script.Timed> steps, int i, Duration at) {
        if (i >= steps.size() || phase != Phase.RUNNING) {
            return;
        }
        Script.Timed next = steps.get(i);
        Duration wait = next.at().minus(at);
        later(wait.isNegative() ? Duration.ZERO : wait, () -> {
            if (phase != Phase.RUNNING) {
                return;
            }
            apply(next.step());
            play(steps, i + 1, next.at());
        });
    }

    private void apply(Step step) {
        if (step instanceof Step.Exit e) {
            if ("OOMKilled".equals(e.reason())) {
                node.oomKilled();
            }
            end(e.code(), e.reason(), e.message(), now());
        } else if (step instanceof Step.LoseNode) {
            k.loseNode(node);
        } else if (step instanceof Step.EvictForDisk) {
            evict();
        } else if (step instanceof Step.HigherPriorityPod) {
            k.preemptorFor(node, gpus().size());
        } else {
            effects.apply(step, k.clock().now());
        }
    }

    // ---- endings -----------------------------------------------------------------------------------------------

    /** The container ended: restart it or end the pod, as the restartPolicy says. */
    private void end(int code, String reason, String message, String finishedAt) {
        cancelTimers();
        letGo();
        st.running = false;
        String started = startedAt == null ? finishedAt : EventRecorder.seconds(startedAt);
        st.state = PodState.terminated(code, reason, message, started, finishedAt, st.containerId);
        String policy = pod.getSpec().getRestartPolicy();
        boolean restart = pod.getMetadata().getDeletionTimestamp() == null
                && ("Always".equals(policy) || ("OnFailure".equals(policy) && code != 0));
        if (restart) {
            phase = Phase.CREATING;
            Duration wait = backoff(crashes++);
            st.lastState = st.state;
            st.restarts++;
            String who = name() + "_" + pod.getMetadata().getNamespace() + "(" + pod.getMetadata().getUid() + ")";
            st.state = PodState.waiting("CrashLoopBackOff", "back-off " + Images.goDuration(wait)
                    + " restarting failed container=" + main.getName() + " pod=" + who);
            st.readiness(true, false, main.getName(), finishedAt);
            write();
            event(container(), "Warning", "BackOff", "Back-off restarting failed container " + main.getName()
                    + " in pod " + who);
            later(wait, this::create);
            return;
        }
        phase = Phase.ENDED;
        st.phase = code == 0 ? "Succeeded" : "Failed";
        st.readiness(false, false, main.getName(), finishedAt);
        write();
    }

    /** The pod is being deleted: SIGTERM, then the container ends with 143 (torchrun dies by the signal). */
    void stop() {
        if (phase == Phase.RUNNING) {
            phase = Phase.STOPPING;
            cancelTimers();
            event(container(), "Normal", "Killing", "Stopping container " + main.getName());
            Script sigterm = new Script();
            io.jobmon.sim.scenario.Torchrun.sigterm(sigterm, run(startedAt).withStart(k.clock().now()));
            Instant now = k.clock().now();
            sigterm.steps().forEach(t -> k.logs().container(logRef(), now, ((Step.Log) t.step()).stream(),
                    ((Step.Log) t.step()).line()));
            later(Duration.ofSeconds(2), () -> {
                phase = Phase.RUNNING;
                end(143, "Error", null, now());
            });
        } else if (phase == Phase.CREATING) {
            cancelTimers();
            ended(137, "ContainerStatusUnknown", "The container could not be located when the pod was terminated");
        }
    }

    /** The kubelet's eviction manager: the node runs low on ephemeral storage and this pod uses the most. */
    private void evict() {
        long capacity = NodeSpec.DISK_BYTES;
        long threshold = capacity / 10;
        long availableKi = (capacity - node.diskUsedBytes()) / 1024;
        long usedKi = node.podDisk(key) / 1024;
        k.nodeEvents(node, "Warning", "EvictionThresholdMet", "Attempting to reclaim ephemeral-storage");
        k.diskPressure(node, true);
        String message = "The node was low on resource: ephemeral-storage. Threshold quantity: " + threshold
                + ", available: " + availableKi + "Ki. Container " + main.getName() + " was using " + usedKi
                + "Ki, request is 0, has larger consumption of ephemeral-storage. ";
        event(ref(), "Warning", "Evicted", message);
        event(container(), "Normal", "Killing", "Stopping container " + main.getName());
        String now = now();
        st.reason = "Evicted";
        st.message = message;
        k.kube().updatePodStatus(key, p -> {
            List<PodCondition> c = new ArrayList<>(p.getStatus().getConditions());
            c.add(new PodConditionBuilder().withType("DisruptionTarget").withStatus("True").withReason("TerminationByKubelet")
                    .withMessage(message).withLastTransitionTime(now).build());
            p.getStatus().setConditions(c);
        });
        ended(137, "ContainerStatusUnknown", "The container could not be located when the pod was terminated");
        node.podGone(key, k.clock().now());
        k.clock().schedule(Duration.ofMinutes(5), () -> k.diskPressure(node, false));
    }

    /** The pod ends for good with this container state (no restart). */
    private void ended(int code, String reason, String message) {
        cancelTimers();
        letGo();
        String now = now();
        st.running = false;
        st.state = PodState.terminated(code, reason, message, startedAt == null ? now : EventRecorder.seconds(startedAt),
                now, st.containerId);
        phase = Phase.ENDED;
        st.phase = "Failed";
        st.readiness(false, false, main.getName(), now);
        write();
    }

    /** The node is lost: nothing of this pod moves or is reported any more. */
    void freeze() {
        if (phase == Phase.CREATING || phase == Phase.RUNNING || phase == Phase.STOPPING) {
            cancelTimers();
            phase = Phase.FROZEN;
        }
    }

    /** The node is back (rebooted): the pod's containers are gone. */
    void thaw() {
        if (phase == Phase.FROZEN) {
            ended(137, "ContainerStatusUnknown", "The container could not be located when the pod was terminated");
        }
    }

    /** The pod is gone from the API. */
    void gone() {
        cancelTimers();
        letGo();
        node.podGone(key, k.clock().now());
        phase = Phase.GONE;
    }

    // ---- helpers -----------------------------------------------------------------------------------------------

    private void letGo() {
        Instant now = k.clock().now();
        gpus().forEach(g -> {
            if (g.holder() != null && name().equals(g.holder().pod())) {
                g.release(now);
            }
        });
        node.podCpu(key, 0, now);
        node.podMemory(key, 0, now);
        node.podNetwork(key, 0, now);
    }

    private List<GpuDevice> gpus() {
        return k.fleet().allocation(key).map(Fleet.Allocation::gpus).orElse(List.of()).stream()
                .map(i -> node.gpus().get(i)).toList();
    }

    private Run run(Instant start) {
        return PodFacts.run(k, pod, main, node, st, start);
    }

    private ContainerRef logRef() {
        return PodFacts.logRef(pod, main, node, st);
    }

    private EventRecorder.Ref ref() {
        return EventRecorder.Ref.of(pod);
    }

    private EventRecorder.Ref container() {
        return ref().container(main.getName());
    }

    private void write() {
        if (k.kube().updatePodStatus(key, st::applyTo).isEmpty()) {
            gone();
        }
    }

    /** An event as the kubelet of this node records it. */
    private void event(EventRecorder.Ref about, String type, String reason, String message) {
        k.events().record(about, type, reason, message, "kubelet", node.name());
    }

    private String now() {
        return EventRecorder.seconds(k.clock().now());
    }

    private void later(Duration d, Runnable r) {
        timers.add(k.clock().schedule(d, r));
    }

    private void cancelTimers() {
        timers.forEach(SimClock.Timer::cancel);
        timers.clear();
    }

    /** The kubelet's back-off: 10 s doubling up to 5 minutes. */
    static Duration backoff(int failures) {
        long s = 10L << Math.min(failures, 5);
        return Duration.ofSeconds(Math.min(300, s));
    }
}
