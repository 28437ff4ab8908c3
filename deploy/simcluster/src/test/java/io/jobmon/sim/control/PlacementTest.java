package io.jobmon.sim.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The scheduler's placement rules and messages (kube-scheduler's FitError and preemption wording). */
class PlacementTest {

    private static final long CPU = 126_000;
    private static final long MEM = 1000L << 30;

    private static Placement.NodeState node(String name, int freeGpus, Placement.Victim... running) {
        return new Placement.NodeState(name, Map.of("kubernetes.io/hostname", name), false, List.of(), freeGpus, CPU, MEM,
                100, List.of(running));
    }

    private static Placement.Demand pod(String key, int gpus, int priority) {
        return new Placement.Demand(key, gpus, 16_000, 128L << 30, Map.of(), List.of(), priority);
    }

    private static List<Placement.NodeState> full(int n) {
        List<Placement.NodeState> nodes = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            nodes.add(node("gpu-" + i, 0, new Placement.Victim("ns/busy-" + i, 8, 16_000, 128L << 30, 10_000, i)));
        }
        return nodes;
    }

    @Test
    void aPodGoesToTheNodeThatIsLeftWithTheFewestFreeGpus() {
        var d = Placement.schedule(List.of(pod("ns/a", 4, 0)), List.of(node("n1", 8), node("n2", 4), node("n3", 6)));
        assertEquals(Map.of("ns/a", "n2"), assertInstanceOf(Placement.Fit.class, d).nodeOf());
    }

    @Test
    void withEveryGpuTakenThePodGetsTheSchedulersInsufficientGpuMessage() {
        var d = Placement.schedule(List.of(pod("ns/a", 8, 10_000)), full(6));
        assertEquals("0/6 nodes are available: 6 Insufficient nvidia.com/gpu. preemption: 0/6 nodes are available: "
                + "6 No preemption victims found for incoming pod.", assertInstanceOf(Placement.NoFit.class, d).message());
    }

    @Test
    void aGangPlacesAllItsPodsOrNone() {
        List<Placement.NodeState> nodes = new ArrayList<>(full(2));
        nodes.add(node("gpu-3", 8));
        var d = Placement.schedule(List.of(pod("ns/w0", 8, 10_000), pod("ns/w1", 8, 10_000)), nodes);
        Placement.NoFit noFit = assertInstanceOf(Placement.NoFit.class, d);
        assertEquals("0/3 nodes are available: 3 Insufficient nvidia.com/gpu. preemption: 0/3 nodes are available: "
                + "3 No preemption victims found for incoming pod.", noFit.message());

        nodes.set(0, node("gpu-1", 8));
        var fit = assertInstanceOf(Placement.Fit.class, Placement.schedule(
                List.of(pod("ns/w0", 8, 10_000), pod("ns/w1", 8, 10_000)), nodes));
        assertEquals(Map.of("ns/w0", "gpu-1", "ns/w1", "gpu-3"), fit.nodeOf());
    }

    @Test
    void aSelectorNoNodeMatchesIsNotHelpedByPreemption() {
        var demand = new Placement.Demand("ns/a", 8, 1000, 1L << 30,
                Map.of("nvidia.com/gpu.product", "NVIDIA-A100-SXM4-80GB-MIG"), List.of(), 10_000);
        var d = Placement.schedule(List.of(demand), List.of(node("n1", 8), node("n2", 8)));
        assertEquals("0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/2 "
                + "nodes are available: 2 Preemption is not helpful for scheduling.",
                assertInstanceOf(Placement.NoFit.class, d).message());
    }

    @Test
    void aNodeReportsOnlyItsFirstFailingFilterAndReasonsAreCountedAndSorted() {
        Taint unreachable = new Taint("NoSchedule", "node.kubernetes.io/unreachable", null, null);
        List<Placement.NodeState> nodes = new ArrayList<>(full(3));
        nodes.add(new Placement.NodeState("lost", Map.of(), false, List.of(unreachable), 8, CPU, MEM, 100, List.of()));
        nodes.add(new Placement.NodeState("cordoned", Map.of(), true, List.of(), 8, CPU, MEM, 100, List.of()));
        var d = Placement.schedule(List.of(pod("ns/a", 8, 10_000)), nodes);
        assertEquals("0/5 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }, "
                + "1 node(s) were unschedulable, 3 Insufficient nvidia.com/gpu. preemption: 0/5 nodes are available: "
                + "2 Preemption is not helpful for scheduling, 3 No preemption victims found for incoming pod.",
                assertInstanceOf(Placement.NoFit.class, d).message());
    }

    @Test
    void aToleratedTaintDoesNotStopThePod() {
        Taint dedicated = new Taint("NoSchedule", "dedicated", null, "gpu");
        Toleration t = new TolerationBuilder().withKey("dedicated").withOperator("Equal").withValue("gpu")
                .withEffect("NoSchedule").build();
        var node = new Placement.NodeState("n1", Map.of(), false, List.of(dedicated), 8, CPU, MEM, 100, List.of());
        var d = Placement.schedule(List.of(new Placement.Demand("ns/a", 8, 1, 1, Map.of(), List.of(t), 0)), List.of(node));
        assertInstanceOf(Placement.Fit.class, d);
    }

    @Test
    void aHigherPriorityPodPreemptsTheLowestPriorityNewestPodsItNeedsAndIsNominated() {
        var low = new Placement.Victim("ns/low", 4, 1000, 1L << 30, 1_000, 200);
        var lowOlder = new Placement.Victim("ns/low-old", 4, 1000, 1L << 30, 1_000, 100);
        var d = Placement.schedule(List.of(pod("inference/serve", 4, 1_000_000)), List.of(node("n1", 0, low, lowOlder)));
        Placement.NoFit noFit = assertInstanceOf(Placement.NoFit.class, d);
        assertEquals(List.of("ns/low"), noFit.victims());
        assertEquals(Map.of("inference/serve", "n1"), noFit.nominated());
        assertEquals("0/1 nodes are available: 1 Insufficient nvidia.com/gpu.", noFit.message());
    }
}
