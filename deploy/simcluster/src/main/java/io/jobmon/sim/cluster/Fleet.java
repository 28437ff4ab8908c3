package io.jobmon.sim.cluster;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The nodes of the sim and what the scheduler has placed on them: which pod holds which GPUs, CPU and memory. A pod
 * holds its share from its binding until it ends or is deleted. Used on the sim's thread only.
 */
public final class Fleet {

    /**
     * A pod's share of a node.
     *
     * @param podKey namespace/name
     * @param priority the pod's priority (from its PriorityClass), for preemption
     */
    public record Allocation(String podKey, String node, List<Integer> gpus, long cpuMillis, long memoryBytes,
            int priority, Instant since) {
    }

    private final Map<String, SimNode> nodes = new LinkedHashMap<>();
    private final Map<String, Allocation> byPod = new LinkedHashMap<>();

    public Fleet(List<NodeSpec> specs, Instant bootTime) {
        int number = 1;
        for (NodeSpec s : specs) {
            nodes.put(s.name(), new SimNode(s, number++, bootTime));
        }
    }

    public Collection<SimNode> nodes() {
        return nodes.values();
    }

    public Optional<SimNode> node(String name) {
        return Optional.ofNullable(name == null ? null : nodes.get(name));
    }

    /** GPUs of the node that are healthy and not held by a pod. */
    public int freeGpus(SimNode n) {
        List<Integer> used = usedGpus(n.name());
        return (int) n.gpus().stream().filter(g -> g.healthy() && !used.contains(g.index())).count();
    }

    private List<Integer> usedGpus(String node) {
        List<Integer> used = new ArrayList<>();
        byPod.values().stream().filter(a -> a.node().equals(node)).forEach(a -> used.addAll(a.gpus()));
        return used;
    }

    /** Places the pod on the node: the lowest free GPU indices, its CPU and memory requests. */
    public Allocation allocate(String podKey, String node, int gpus, long cpuMillis, long memoryBytes, int priority,
            Instant at) {
        if (byPod.containsKey(podKey)) {
            return byPod.get(podKey);
        }
        SimNode n = nodes.get(node);
        List<Integer> used = usedGpus(node);
        List<Integer> mine = new ArrayList<>();
        for (int i = 0; i < n.spec().gpus() && mine.size() < gpus; i++) {
            if (!used.contains(i) && n.gpus().get(i).healthy()) {
                mine.add(i);
            }
        }
        if (mine.size() < gpus) {
            throw new IllegalStateException(podKey + " does not fit on " + node);
        }
        Allocation a = new Allocation(podKey, node, List.copyOf(mine), cpuMillis, memoryBytes, priority, at);
        byPod.put(podKey, a);
        n.request(cpuMillis, memoryBytes, 1);
        return a;
    }

    /** The pod ended or was deleted: its share is free again. */
    public Optional<Allocation> release(String podKey) {
        Allocation a = byPod.remove(podKey);
        if (a != null) {
            nodes.get(a.node()).request(-a.cpuMillis(), -a.memoryBytes(), -1);
        }
        return Optional.ofNullable(a);
    }

    public Optional<Allocation> allocation(String podKey) {
        return Optional.ofNullable(byPod.get(podKey));
    }

    public List<Allocation> on(String node) {
        return byPod.values().stream().filter(a -> a.node().equals(node)).toList();
    }
}
