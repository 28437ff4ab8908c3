package io.jobmon.sim.control;

import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The scheduler's decision for one gang (the pending pods of one Job, all or none): where each pod goes, or why no
 * node fits, worded as kube-scheduler words it. Filters run in kube-scheduler's order and a node reports the reasons
 * of the first filter it fails: NodeUnschedulable, TaintToleration, NodeAffinity (nodeSelector), then
 * NodeResourcesFit (pods, cpu, memory, nvidia.com/gpu). Among the nodes that fit, the one left with the fewest free
 * GPUs wins (bin-packing, as GPU clusters score; kube-scheduler's default spreads).
 */
public final class Placement {

    /** What a pod asks for. */
    public record Demand(String key, int gpus, long cpuMillis, long memoryBytes, Map<String, String> nodeSelector,
            List<Toleration> tolerations, int priority) {
    }

    /** What is free on a node, and the pods that could be preempted there. */
    public record NodeState(String name, Map<String, String> labels, boolean unschedulable, List<Taint> taints,
            int freeGpus, long freeCpuMillis, long freeMemoryBytes, int freePods, List<Victim> pods) {
    }

    /** A running pod with its share and priority. */
    public record Victim(String key, int gpus, long cpuMillis, long memoryBytes, int priority, long startedMillis) {
    }

    /** The outcome for a gang. */
    public sealed interface Decision permits Fit, NoFit {
    }

    /** Every pod of the gang has a node. */
    public record Fit(Map<String, String> nodeOf) implements Decision {
    }

    /**
     * No placement: the message of the first pod that did not fit; with preemption, the victims to evict and the
     * nodes the gang's pods are nominated to.
     */
    public record NoFit(String message, List<String> victims, Map<String, String> nominated) implements Decision {
    }

    private Placement() {
    }

    /** Places the gang, preempting lower-priority pods if that makes it fit. */
    public static Decision schedule(List<Demand> gang, List<NodeState> nodes) {
        Attempt first = place(gang, nodes);
        if (first.fit != null) {
            return first.fit;
        }
        int priority = gang.stream().mapToInt(Demand::priority).min().orElse(0);
        List<NodeState> without = nodes.stream().map(n -> withoutLowerThan(n, priority)).toList();
        Attempt preempting = place(gang, without);
        if (preempting.fit == null) {
            return new NoFit(first.error + " " + postFilter(first.failed, nodes, priority), List.of(), Map.of());
        }
        List<String> victims = new ArrayList<>();
        Map<String, List<Demand>> byNode = new TreeMap<>();
        gang.forEach(d -> byNode.computeIfAbsent(preempting.fit.nodeOf().get(d.key()), k -> new ArrayList<>()).add(d));
        for (NodeState n : nodes) {
            List<Demand> here = byNode.get(n.name());
            if (here != null) {
                victims.addAll(victimsOn(n, here, priority));
            }
        }
        return new NoFit(first.error, victims, preempting.fit.nodeOf());
    }

    private record Attempt(Fit fit, String error, Demand failed) {
    }

    private static Attempt place(List<Demand> gang, List<NodeState> nodes) {
        Map<String, int[]> freeGpus = new LinkedHashMap<>();
        Map<String, long[]> freeOther = new LinkedHashMap<>();
        nodes.forEach(n -> {
            freeGpus.put(n.name(), new int[] {n.freeGpus(), n.freePods()});
            freeOther.put(n.name(), new long[] {n.freeCpuMillis(), n.freeMemoryBytes()});
        });
        Map<String, String> nodeOf = new LinkedHashMap<>();
        List<Demand> order = gang.stream().sorted(Comparator.comparingInt(Demand::gpus).reversed()).toList();
        for (Demand d : order) {
            Map<String, Integer> reasons = new TreeMap<>();
            NodeState best = null;
            for (NodeState n : nodes) {
                List<String> why = reasons(d, n, freeGpus.get(n.name()), freeOther.get(n.name()));
                if (why.isEmpty()) {
                    int left = freeGpus.get(n.name())[0] - d.gpus();
                    if (best == null || left < freeGpus.get(best.name())[0] - d.gpus()) {
                        best = n;
                    }
                }
                why.forEach(w -> reasons.merge(w, 1, Integer::sum));
            }
            if (best == null) {
                return new Attempt(null, fitError(nodes.size(), reasons), d);
            }
            nodeOf.put(d.key(), best.name());
            freeGpus.get(best.name())[0] -= d.gpus();
            freeGpus.get(best.name())[1] -= 1;
            freeOther.get(best.name())[0] -= d.cpuMillis();
            freeOther.get(best.name())[1] -= d.memoryBytes();
        }
        return new Attempt(new Fit(nodeOf), null, null);
    }

    /** The reasons of the first filter the node fails for the pod (empty: it fits). */
    static List<String> reasons(Demand d, NodeState n, int[] gpusAndPods, long[] cpuAndMemory) {
        if (n.unschedulable() && !tolerates(d.tolerations(), "node.kubernetes.io/unschedulable", "", "NoSchedule")) {
            return List.of("node(s) were unschedulable");
        }
        for (Taint t : n.taints()) {
            if (("NoSchedule".equals(t.getEffect()) || "NoExecute".equals(t.getEffect()))
                    && !tolerates(d.tolerations(), t.getKey(), t.getValue(), t.getEffect())) {
                return List.of("node(s) had untolerated taint {" + t.getKey() + ": "
                        + (t.getValue() == null ? "" : t.getValue()) + "}");
            }
        }
        for (Map.Entry<String, String> s : d.nodeSelector().entrySet()) {
            if (!s.getValue().equals(n.labels().get(s.getKey()))) {
                return List.of("node(s) didn't match Pod's node affinity/selector");
            }
        }
        List<String> out = new ArrayList<>();
        if (gpusAndPods[1] < 1) {
            out.add("Too many pods");
        }
        if (d.cpuMillis() > cpuAndMemory[0]) {
            out.add("Insufficient cpu");
        }
        if (d.memoryBytes() > cpuAndMemory[1]) {
            out.add("Insufficient memory");
        }
        if (d.gpus() > gpusAndPods[0]) {
            out.add("Insufficient nvidia.com/gpu");
        }
        return out;
    }

    /** Whether a failure of these reasons could be resolved by preempting pods (resource shortage only). */
    private static boolean resolvable(List<String> reasons) {
        return reasons.stream().allMatch(r -> r.startsWith("Insufficient ") || r.equals("Too many pods"));
    }

    static boolean tolerates(List<Toleration> tolerations, String key, String value, String effect) {
        for (Toleration t : tolerations) {
            boolean effectOk = t.getEffect() == null || t.getEffect().isEmpty() || t.getEffect().equals(effect);
            boolean keyOk = t.getKey() == null || t.getKey().isEmpty() ? "Exists".equals(t.getOperator())
                    : t.getKey().equals(key);
            boolean valueOk = "Exists".equals(t.getOperator())
                    || java.util.Objects.equals(t.getValue() == null ? "" : t.getValue(), value == null ? "" : value);
            if (effectOk && keyOk && valueOk) {
                return true;
            }
        }
        return false;
    }

    /** kube-scheduler's FitError: {@code 0/N nodes are available: <count reason, ...>.} (histogram sorted as strings). */
    static String fitError(int nodes, Map<String, Integer> reasons) {
        List<String> parts = new ArrayList<>();
        reasons.forEach((r, c) -> parts.add(c + " " + r));
        parts.sort(null);
        return "0/" + nodes + " nodes are available: " + String.join(", ", parts) + ".";
    }

    /** The default preemption plugin's message when no node has victims enough. */
    private static String postFilter(Demand d, List<NodeState> nodes, int priority) {
        Map<String, Integer> reasons = new TreeMap<>();
        for (NodeState n : nodes) {
            List<String> why = reasons(d, n, new int[] {n.freeGpus(), n.freePods()},
                    new long[] {n.freeCpuMillis(), n.freeMemoryBytes()});
            String r = why.isEmpty() || resolvable(why) ? "No preemption victims found for incoming pod"
                    : "Preemption is not helpful for scheduling";
            reasons.merge(r, 1, Integer::sum);
        }
        return "preemption: " + fitError(nodes.size(), reasons);
    }

    private static NodeState withoutLowerThan(NodeState n, int priority) {
        int gpus = n.freeGpus();
        long cpu = n.freeCpuMillis();
        long mem = n.freeMemoryBytes();
        int pods = n.freePods();
        for (Victim v : n.pods()) {
            if (v.priority() < priority) {
                gpus += v.gpus();
                cpu += v.cpuMillis();
                mem += v.memoryBytes();
                pods++;
            }
        }
        return new NodeState(n.name(), n.labels(), n.unschedulable(), n.taints(), gpus, cpu, mem, pods, List.of());
    }

    /** The fewest lower-priority pods to evict from the node for these pods: lowest priority first, newest first. */
    private static List<String> victimsOn(NodeState n, List<Demand> here, int priority) {
        int gpus = here.stream().mapToInt(Demand::gpus).sum() - n.freeGpus();
        long cpu = here.stream().mapToLong(Demand::cpuMillis).sum() - n.freeCpuMillis();
        long mem = here.stream().mapToLong(Demand::memoryBytes).sum() - n.freeMemoryBytes();
        List<Victim> candidates = n.pods().stream().filter(v -> v.priority() < priority)
                .sorted(Comparator.comparingInt(Victim::priority).thenComparing(Victim::startedMillis,
                        Comparator.reverseOrder()))
                .toList();
        List<String> out = new ArrayList<>();
        for (Victim v : candidates) {
            if (gpus <= 0 && cpu <= 0 && mem <= 0) {
                break;
            }
            out.add(v.key());
            gpus -= v.gpus();
            cpu -= v.cpuMillis();
            mem -= v.memoryBytes();
        }
        return out;
    }
}
