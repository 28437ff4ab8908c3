package io.jobmon.sim.control;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.jobmon.sim.clock.SimClock;
import io.jobmon.sim.cluster.Fleet;
import io.jobmon.sim.cluster.NodeSpec;
import io.jobmon.sim.cluster.SimNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler: binds pending pods to nodes, a Job's pods all together or none (gang), by {@link Placement}.
 * A gang that does not fit gets {@code PodScheduled=False/Unschedulable} with the scheduler's message and a
 * {@code FailedScheduling} event, and is tried again when resources free up, nodes change, or after five minutes
 * (podMaxInUnschedulablePodsDuration). Lower-priority pods are preempted when that makes a gang fit
 * ({@code DisruptionTarget} condition, {@code Preempted} event, deletion). A pod holds its share of the node from its
 * binding until it ends or is deleted.
 */
public final class Scheduler {

    private static final Logger LOG = LoggerFactory.getLogger(Scheduler.class);
    private static final Duration RETRY = Duration.ofMinutes(5);

    private final Kube kube;
    private final Fleet fleet;
    private final EventRecorder events;
    private final SimClock clock;
    private boolean passQueued;
    private SimClock.Timer retry;

    public Scheduler(Kube kube, Fleet fleet, EventRecorder events, SimClock clock) {
        this.kube = kube;
        this.fleet = fleet;
        this.events = events;
        this.clock = clock;
        kube.onChange(this::onChange);
    }

    private void onChange(Kube.Change c) {
        if (c.object() instanceof Pod pod) {
            String key = Kube.key(pod);
            if (c.deleted() || PodPhases.terminal(pod)) {
                if (fleet.release(key).isPresent()) {
                    queuePass();
                }
            } else if (waiting(pod) && "ADDED".equals(c.type())) {
                queuePass();
            }
        } else if (c.object() instanceof Node) {
            queuePass();
        }
    }

    private void queuePass() {
        if (!passQueued) {
            passQueued = true;
            clock.execute(this::pass);
        }
    }

    /** A pod for this scheduler, not bound, not placed, not ending. */
    private boolean waiting(Pod p) {
        return !PodPhases.bound(p) && !PodPhases.terminal(p) && p.getMetadata().getDeletionTimestamp() == null
                && "default-scheduler".equals(p.getSpec().getSchedulerName()) && !Replay.is(p)
                && fleet.allocation(Kube.key(p)).isEmpty();
    }

    /** One scheduling round over every waiting gang, highest priority first, oldest first. */
    public void pass() {
        passQueued = false;
        Map<String, List<Pod>> gangs = new LinkedHashMap<>();
        kube.pods().stream().filter(this::waiting)
                .sorted(Comparator.comparing((Pod p) -> -priority(p))
                        .thenComparing(p -> p.getMetadata().getCreationTimestamp(), Comparator.nullsLast(Comparator.naturalOrder())))
                .forEach(p -> gangs.computeIfAbsent(gangOf(p), g -> new ArrayList<>()).add(p));
        for (List<Pod> gang : gangs.values()) {
            if (gang.size() < expectedMembers(gang.get(0))) {
                continue;
            }
            try {
                schedule(gang);
            } catch (KubernetesClientException e) {
                LOG.warn("scheduling {}: {}", Kube.key(gang.get(0)), e.getMessage());
            }
        }
        if (retry != null) {
            retry.cancel();
            retry = null;
        }
        if (kube.pods().stream().anyMatch(this::waiting)) {
            retry = clock.schedule(RETRY, this::queuePass);
        }
    }

    private void schedule(List<Pod> gang) {
        List<Placement.Demand> demands = gang.stream().map(Scheduler::demand).toList();
        Placement.Decision decision = Placement.schedule(demands, nodeStates());
        if (decision instanceof Placement.Fit fit) {
            for (Pod p : gang) {
                String key = Kube.key(p);
                String node = fit.nodeOf().get(key);
                Placement.Demand d = demands.get(gang.indexOf(p));
                fleet.allocate(key, node, d.gpus(), d.cpuMillis(), d.memoryBytes(), d.priority(), clock.now());
                bind(p, node);
            }
            return;
        }
        Placement.NoFit noFit = (Placement.NoFit) decision;
        for (String victim : noFit.victims()) {
            kube.pod(victim).filter(v -> v.getMetadata().getDeletionTimestamp() == null)
                    .ifPresent(v -> preempt(v, gang.get(0)));
        }
        for (Pod p : gang) {
            unschedulable(p, noFit.message(), noFit.nominated().get(Kube.key(p)));
        }
    }

    private void bind(Pod p, String node) {
        String key = Kube.key(p);
        kube.bind(key, node);
        String now = EventRecorder.seconds(clock.now());
        kube.updatePodStatus(key, pod -> {
            List<PodCondition> conditions = new ArrayList<>(pod.getStatus().getConditions() == null ? List.of()
                    : pod.getStatus().getConditions());
            conditions.removeIf(c -> "PodScheduled".equals(c.getType()));
            conditions.add(new PodConditionBuilder().withType("PodScheduled").withStatus("True")
                    .withLastTransitionTime(now).build());
            pod.getStatus().setConditions(conditions);
            pod.getStatus().setNominatedNodeName(null);
        });
        events.scheduler(EventRecorder.Ref.of(p), null, "Normal", "Scheduled", "Binding",
                "Successfully assigned " + key + " to " + node);
    }

    private void unschedulable(Pod p, String message, String nominated) {
        String key = Kube.key(p);
        String now = EventRecorder.seconds(clock.now());
        kube.updatePodStatus(key, pod -> {
            List<PodCondition> conditions = new ArrayList<>(pod.getStatus().getConditions() == null ? List.of()
                    : pod.getStatus().getConditions());
            PodCondition old = conditions.stream().filter(c -> "PodScheduled".equals(c.getType())).findFirst().orElse(null);
            conditions.remove(old);
            conditions.add(new PodConditionBuilder().withType("PodScheduled").withStatus("False")
                    .withReason("Unschedulable").withMessage(message)
                    .withLastTransitionTime(old != null && "False".equals(old.getStatus()) ? old.getLastTransitionTime() : now)
                    .build());
            pod.getStatus().setConditions(conditions);
            if (nominated != null) {
                pod.getStatus().setNominatedNodeName(nominated);
            }
        });
        events.scheduler(EventRecorder.Ref.of(p), null, "Warning", "FailedScheduling", "Scheduling", message);
    }

    private void preempt(Pod victim, Pod preemptor) {
        String node = victim.getSpec().getNodeName();
        String now = EventRecorder.seconds(clock.now());
        kube.updatePodStatus(Kube.key(victim), pod -> {
            List<PodCondition> conditions = new ArrayList<>(pod.getStatus().getConditions() == null ? List.of()
                    : pod.getStatus().getConditions());
            conditions.removeIf(c -> "DisruptionTarget".equals(c.getType()));
            conditions.add(new PodConditionBuilder().withType("DisruptionTarget").withStatus("True")
                    .withReason("PreemptionByScheduler")
                    .withMessage("default-scheduler: preempting to accommodate a higher priority pod")
                    .withLastTransitionTime(now).build());
            pod.getStatus().setConditions(conditions);
        });
        events.scheduler(EventRecorder.Ref.of(victim), EventRecorder.Ref.of(preemptor), "Normal", "Preempted",
                "Preempting", "Preempted by pod " + preemptor.getMetadata().getUid() + " on node " + node);
        kube.deletePod(Kube.key(victim));
    }

    private List<Placement.NodeState> nodeStates() {
        List<Placement.NodeState> out = new ArrayList<>();
        for (SimNode n : fleet.nodes()) {
            Node node = kube.node(n.name()).orElse(null);
            Map<String, String> labels = node == null || node.getMetadata().getLabels() == null ? Map.of()
                    : node.getMetadata().getLabels();
            boolean unschedulable = node != null && node.getSpec() != null && Boolean.TRUE.equals(node.getSpec().getUnschedulable());
            List<Taint> taints = node == null || node.getSpec() == null || node.getSpec().getTaints() == null ? List.of()
                    : node.getSpec().getTaints();
            List<Placement.Victim> running = fleet.on(n.name()).stream()
                    .map(a -> new Placement.Victim(a.podKey(), a.gpus().size(), a.cpuMillis(), a.memoryBytes(),
                            a.priority(), a.since().toEpochMilli()))
                    .toList();
            out.add(new Placement.NodeState(n.name(), labels, unschedulable, taints, fleet.freeGpus(n),
                    NodeSpec.CPU_MILLIS - 2_000 - n.cpuRequestedMillis(),
                    NodeSpec.MEMORY_BYTES - (16L << 30) - n.memoryRequestedBytes(), NodeSpec.MAX_PODS - n.podCount(),
                    running));
        }
        return out;
    }

    static Placement.Demand demand(Pod p) {
        Admission.Usage u = PodResources.usage(p);
        Map<String, String> selector = p.getSpec().getNodeSelector() == null ? Map.of() : p.getSpec().getNodeSelector();
        return new Placement.Demand(Kube.key(p), (int) u.gpus(), u.cpuMillis(), u.memoryBytes(), selector,
                p.getSpec().getTolerations() == null ? List.of() : p.getSpec().getTolerations(), priority(p));
    }

    static int priority(Pod p) {
        return p.getSpec().getPriority() == null ? 0 : p.getSpec().getPriority();
    }

    /** How many of its Job's pods must wait together: the Job's parallelism less its pods already placed. */
    private int expectedMembers(Pod p) {
        String uid = Kube.ownerUid(p);
        if (uid == null) {
            return 1;
        }
        return kube.jobs().stream().filter(j -> uid.equals(j.getMetadata().getUid())).findFirst().map(j -> {
            int parallelism = j.getSpec().getParallelism() == null ? 1 : j.getSpec().getParallelism();
            long placed = kube.podsOwnedBy(uid).stream().filter(o -> fleet.allocation(Kube.key(o)).isPresent()).count();
            return (int) Math.max(1, parallelism - placed);
        }).orElse(1);
    }

    /** The pods of one Job (same controller uid) are one gang; any other pod is its own. */
    private static String gangOf(Pod p) {
        String uid = p.getMetadata().getLabels() == null ? null : p.getMetadata().getLabels().get(JobPods.CONTROLLER_UID);
        return uid != null ? uid : Kube.key(p);
    }
}
