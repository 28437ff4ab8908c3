package io.jobmon.sim.kubelet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.jobmon.sim.JobServiceWorkload;
import io.jobmon.sim.SimHarness;
import io.jobmon.sim.cluster.GpuDevice;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The kubelet's rules on a manual clock: what a pod goes through on its node, as events, statuses and lines. */
class KubeletTest {

    private final SimHarness h = new SimHarness("A800:2x8", Duration.ofMinutes(5));

    @AfterEach
    void close() {
        h.close();
    }

    @Test
    void aHealthyPodIsScheduledPulledStartedRunsAndSucceeds() {
        h.submit(JobServiceWorkload.build("job-1", "jobmon-jobs", 1, 8, Map.of()));
        assertTrue(h.run(Duration.ofMinutes(1), () -> h.pod("job-1").filter(p -> "Running".equals(p.getStatus().getPhase())).isPresent()));
        Pod pod = h.pod("job-1").orElseThrow();
        String name = pod.getMetadata().getName();
        String node = pod.getSpec().getNodeName();
        List<String> events = h.eventsAbout(name);
        assertEquals(List.of("Normal Scheduled: Successfully assigned jobmon-jobs/" + name + " to " + node,
                "Normal Pulling: Pulling image \"registry.local/llm/trainer:24.05\""), events.subList(0, 2));
        assertTrue(events.get(2).startsWith("Normal Pulled: Successfully pulled image \"registry.local/llm/trainer:24.05\" in 20s (20.004s including waiting). Image size: "), events.get(2));
        assertEquals(List.of("Normal Created: Created container main", "Normal Started: Started container main"), events.subList(3, 5));
        var cs = pod.getStatus().getContainerStatuses().get(0);
        assertTrue(cs.getContainerID().matches("containerd://[0-9a-f]{64}"), cs.getContainerID());
        assertTrue(cs.getReady());
        assertNotNull(cs.getState().getRunning().getStartedAt());
        assertEquals("10.244.1.2", pod.getStatus().getPodIP());
        GpuDevice gpu = h.sim.fleet().node(node).orElseThrow().gpus().get(0);
        assertEquals(new GpuDevice.Holder("jobmon-jobs", name, "main"), gpu.holder());

        assertTrue(h.run(Duration.ofMinutes(7), () -> h.pod("job-1").filter(p -> "Succeeded".equals(p.getStatus().getPhase())).isPresent()));
        var done = h.pod("job-1").orElseThrow().getStatus().getContainerStatuses().get(0).getState().getTerminated();
        assertEquals(0, done.getExitCode());
        assertEquals("Completed", done.getReason());
        assertTrue(h.logs.textOf(name).stream().anyMatch(l -> l.contains("it/s]") || l.contains("s/it]")));
        assertTrue(h.logs.textOf(name).stream().anyMatch(l -> l.contains("Training completed.")));
        assertEquals(null, gpu.holder());
        h.run(Duration.ofSeconds(5));
        var job = h.job("job-1").orElseThrow();
        assertTrue(job.getStatus().getConditions().stream().anyMatch(c -> "Complete".equals(c.getType())));
        assertEquals(1, job.getStatus().getSucceeded());
        assertTrue(h.pod("job-1").orElseThrow().getMetadata().getFinalizers().isEmpty(), "the tracking finalizer is released");
    }
}
