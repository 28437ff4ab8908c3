package io.jobmon.sim.kubelet;

import io.jobmon.sim.cluster.GpuDevice;
import io.jobmon.sim.cluster.SimNode;
import io.jobmon.sim.control.NodeController;
import io.jobmon.sim.logs.ContainerRef;
import io.jobmon.sim.logs.JournalRef;
import io.jobmon.sim.scenario.Step;
import io.jobmon.sim.telemetry.GpuLoad;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;

/**
 * What a running container's script steps do to the world around it: its log lines and the node's journal and device
 * plugin lines go to the log feed; its load, faults and host figures go to its GPUs and its node (what the exporters
 * read). The steps that change the pod's life (exit, eviction, node loss, preemption) are its {@link PodRun}'s.
 */
final class StepEffects {

    private final Kubelet k;
    private final SimNode node;
    private final String podKey;
    private final Supplier<List<GpuDevice>> gpus;
    private final Supplier<ContainerRef> logRef;
    private GpuDevice lastFault;

    StepEffects(Kubelet k, SimNode node, String podKey, Supplier<List<GpuDevice>> gpus, Supplier<ContainerRef> logRef) {
        this.k = k;
        this.node = node;
        this.podKey = podKey;
        this.gpus = gpus;
        this.logRef = logRef;
    }

    void apply(Step step, Instant now) {
        if (step instanceof Step.Log l) {
            k.logs().container(logRef.get(), now, l.stream(), l.line());
        } else if (step instanceof Step.Journal j) {
            k.logs().journal(new JournalRef(node.name(), NodeController.bootId(node), NodeController.machineId(node),
                    j.identifier(), j.unit(), j.pid(), j.transport(), j.priority()), now, j.message());
        } else if (step instanceof Step.DevicePluginLog d) {
            String line = d.line().replace("%UUID%", lastFault == null ? "" : lastFault.uuid());
            k.logs().container(k.devicePlugin(node), now, "stderr", Klog.line('I', now, 1, "health.go:169", line));
        } else if (step instanceof Step.Load l) {
            gpus.get().forEach(g -> g.run(l.load(), now));
        } else if (step instanceof Step.GpuFault f) {
            fault(f, now);
        } else if (step instanceof Step.HostMemory m) {
            node.podMemory(podKey, m.bytes(), now);
        } else if (step instanceof Step.DiskWrite d) {
            node.podWrote(podKey, d.bytes(), now);
        } else if (step instanceof Step.Cpu c) {
            node.podCpu(podKey, c.fraction(), now);
        } else if (step instanceof Step.Network n) {
            node.podNetwork(podKey, n.bytesPerSecond(), now);
        } else {
            throw new IllegalArgumentException("not an effect: " + step);
        }
    }

    /** The driver's Xid (and ECC counts) on the pod's GPU; the device plugin may mark it unhealthy. */
    private void fault(Step.GpuFault f, Instant now) {
        List<GpuDevice> mine = gpus.get();
        if (mine.isEmpty()) {
            return;
        }
        GpuDevice g = mine.get(Math.min(f.gpu(), mine.size() - 1));
        lastFault = g;
        g.xid(f.xid());
        if (f.dbe()) {
            g.doubleBitError();
        }
        g.run(GpuLoad.faulted(g.model().memoryMiB() / 2), now);
        if (f.unhealthy()) {
            k.unhealthy(node, g);
        }
    }
}
