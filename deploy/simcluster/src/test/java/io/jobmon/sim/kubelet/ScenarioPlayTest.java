package io.jobmon.sim.kubelet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.jobmon.sim.JobServiceWorkload;
import io.jobmon.sim.SimHarness;
import io.jobmon.sim.cluster.GpuDevice;
import io.jobmon.sim.cluster.SimNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Each failure scenario as the cluster shows it: events, pod and container status, log lines, node and GPU state. */
class ScenarioPlayTest {

    private static final String NS = "jobmon-jobs";
    private static final String IMAGE = "registry.local/llm/trainer:24.05";
    private final SimHarness h = new SimHarness("A800:2x8", Duration.ofMinutes(5));

    @AfterEach
    void close() {
        h.close();
    }

    private Pod submitAndAwaitEnd(String jobId, String scenario, int replicas) {
        h.submit(JobServiceWorkload.build(jobId, NS, replicas, 8, h.labels(scenario)));
        assertTrue(h.run(Duration.ofMinutes(30), () -> h.pod(jobId).filter(p -> p.getStatus().getPhase().equals("Failed")
                || p.getStatus().getPhase().equals("Succeeded")).isPresent()), "the pod ended");
        return h.pod(jobId).orElseThrow();
    }

    private static String name(Pod p) {
        return p.getMetadata().getName();
    }

    private boolean jobFailed(String jobId) {
        h.run(Duration.ofSeconds(3));
        return h.job(jobId).orElseThrow().getStatus().getConditions().stream()
                .anyMatch(c -> "Failed".equals(c.getType()) && "BackoffLimitExceeded".equals(c.getReason()));
    }

    @Test
    void anImageThatDoesNotExistFailsToPullAndBacksOffAgainAndAgain() {
        h.submit(JobServiceWorkload.build("job-img", NS, 1, 8, h.labels("image-pull")));
        h.run(Duration.ofMinutes(3));
        Pod pod = h.pod("job-img").orElseThrow();
        String ref = IMAGE;
        List<String> events = h.eventsAbout(name(pod));
        assertTrue(events.contains("Warning Failed: Failed to pull image \"" + ref + "\": rpc error: code = NotFound desc = "
                + "failed to pull and unpack image \"" + ref + "\": failed to resolve reference \"" + ref + "\": " + ref
                + ": not found"), events.toString());
        assertTrue(events.contains("Warning Failed: Error: ErrImagePull"));
        assertTrue(events.contains("Normal BackOff: Back-off pulling image \"" + ref + "\""));
        assertTrue(events.contains("Warning Failed: Error: ImagePullBackOff"));
        assertEquals("Pending", pod.getStatus().getPhase());
        var waiting = pod.getStatus().getContainerStatuses().get(0).getState().getWaiting();
        assertTrue(List.of("ImagePullBackOff", "ErrImagePull").contains(waiting.getReason()), waiting.getReason());
        int pulls = h.api.newClient(NS).v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> "Pulling".equals(e.getReason()) && name(pod).equals(e.getInvolvedObject().getName()))
                .mapToInt(e -> e.getCount()).sum();
        assertTrue(pulls >= 3, "pulled again with back-off: " + pulls);
    }

    @Test
    void hostMemoryOomKillsTheContainerAndFailsTheJob() {
        Pod pod = submitAndAwaitEnd("job-oom", "oom", 1);
        var t = pod.getStatus().getContainerStatuses().get(0).getState().getTerminated();
        assertEquals(List.of(137, "OOMKilled"), List.of(t.getExitCode(), t.getReason()));
        List<String> kernel = h.logs.journalOf(pod.getSpec().getNodeName());
        assertTrue(kernel.stream()
                .anyMatch(l -> l.startsWith("Memory cgroup out of memory: Killed process ") && l.contains("(python)")));
        // the kernel's one-line summary names the container's cgroup by the pod's UID and the container's id (what
        // the kubelet reports as containerd://<id>), and the pod's own Fluent Bit records carry the same two
        String uid = pod.getMetadata().getUid();
        String cid = t.getContainerID().substring("containerd://".length());
        String memcg = "/kubepods.slice/kubepods-" + pod.getStatus().getQosClass().toLowerCase() + ".slice/kubepods-"
                + pod.getStatus().getQosClass().toLowerCase() + "-pod" + uid.replace('-', '_') + ".slice/cri-containerd-"
                + cid + ".scope";
        if (pod.getStatus().getQosClass().equals("Guaranteed")) {
            memcg = "/kubepods.slice/kubepods-pod" + uid.replace('-', '_') + ".slice/cri-containerd-" + cid + ".scope";
        }
        String summary = "oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=cri-containerd-" + cid
                + ".scope,mems_allowed=0-1,oom_memcg=" + memcg + ",task_memcg=" + memcg + ",task=python,pid=";
        int invoked = indexOf(kernel, l -> l.startsWith("python invoked oom-killer: "));
        int oomKill = indexOf(kernel, l -> l.startsWith(summary) && l.endsWith(",uid=0"));
        int killed = indexOf(kernel, l -> l.startsWith("Memory cgroup out of memory: Killed process "));
        assertTrue(invoked >= 0 && invoked < oomKill && oomKill < killed, kernel.toString());
        String pid = kernel.get(oomKill).substring(summary.length(), kernel.get(oomKill).length() - ",uid=0".length());
        assertTrue(kernel.get(killed).startsWith("Memory cgroup out of memory: Killed process " + pid + " (python) "));
        assertTrue(h.logs.lines().stream().filter(l -> name(pod).equals(l.pod())).allMatch(l -> l.record()
                .contains("\"pod_id\":\"" + uid + "\"") && l.record().contains("\"docker_id\":\"" + cid + "\"")));
        assertTrue(h.logs.textOf(name(pod)).stream().anyMatch(l -> l.startsWith("Map (num_proc=64): ")));
        assertEquals(1, h.sim.fleet().node(pod.getSpec().getNodeName()).orElseThrow().oomKills());
        assertTrue(jobFailed("job-oom"));
    }

    @Test
    void underRestartPolicyOnFailureAnOomKilledContainerRestartsWithBackOff() {
        Map<String, Quantity> res = Map.of("nvidia.com/gpu", new Quantity("8"), "memory", new Quantity("64Gi"),
                "cpu", new Quantity("8"));
        h.kube().create(new PodBuilder().withNewMetadata().withName("prep-0").withNamespace(NS)
                .addToLabels("sim.jobmon.io/scenario", "oom").endMetadata().withNewSpec().withRestartPolicy("OnFailure")
                .withSchedulerName("default-scheduler").addNewContainer().withName("main").withImage(IMAGE)
                .withNewResources().withRequests(res).withLimits(res).endResources().endContainer().endSpec()
                .withNewStatus().withPhase("Pending").endStatus().build());
        assertTrue(h.run(Duration.ofMinutes(20), () -> h.kube().pod(NS + "/prep-0")
                .map(p -> p.getStatus().getContainerStatuses() != null
                        && p.getStatus().getContainerStatuses().get(0).getRestartCount() >= 1).orElse(false)));
        Pod pod = h.kube().pod(NS + "/prep-0").orElseThrow();
        var cs = pod.getStatus().getContainerStatuses().get(0);
        assertEquals(List.of(137, "OOMKilled"), List.of(cs.getLastState().getTerminated().getExitCode(),
                cs.getLastState().getTerminated().getReason()));
        assertEquals("CrashLoopBackOff", cs.getState().getWaiting().getReason());
        assertEquals("back-off 10s restarting failed container=main pod=prep-0_jobmon-jobs(" + pod.getMetadata().getUid()
                + ")", cs.getState().getWaiting().getMessage());
        assertTrue(h.eventsAbout("prep-0").contains("Warning BackOff: Back-off restarting failed container main in pod "
                + "prep-0_jobmon-jobs(" + pod.getMetadata().getUid() + ")"));
    }

    @Test
    void aQuotaDenialIsAFailedCreateEventAndNoPod() {
        h.submit(JobServiceWorkload.build("job-q", NS, 2, 8, h.labels("quota")));
        h.run(Duration.ofSeconds(15));
        assertTrue(h.podsOf("job-q").isEmpty());
        List<String> events = h.eventsAbout("job-q");
        assertTrue(events.size() >= 4, "each pod denied, then again after the back-off: " + events);
        assertTrue(events.get(0).matches("Warning FailedCreate: Error creating: pods \"job-q-[01]-[a-z0-9]{5}\" is forbidden: "
                + "exceeded quota: project-nlp-gpu, requested: requests\\.nvidia\\.com/gpu=8, used: "
                + "requests\\.nvidia\\.com/gpu=0, limited: requests\\.nvidia\\.com/gpu=0"), events.get(0));
    }

    @Test
    void stoppingAJobInTheForegroundKillsItsPodsWithSigtermThenRemovesThePodsAndTheJob() {
        h.submit(JobServiceWorkload.build("job-stop", NS, 1, 8, Map.of()));
        assertTrue(h.run(Duration.ofMinutes(2), () -> h.pod("job-stop").filter(p -> "Running".equals(p.getStatus().getPhase())).isPresent()));
        Pod pod = h.pod("job-stop").orElseThrow();
        var client = h.api.newClient(NS);
        client.batch().v1().jobs().inNamespace(NS).withName("job-stop").withPropagationPolicy(DeletionPropagation.FOREGROUND).delete();
        h.kube().observed("MODIFIED", client.batch().v1().jobs().inNamespace(NS).withName("job-stop").get());
        assertTrue(h.run(Duration.ofMinutes(1), () -> h.podsOf("job-stop").isEmpty() && h.job("job-stop").isEmpty()));
        assertTrue(h.eventsAbout(name(pod)).contains("Normal Killing: Stopping container main"));
        assertTrue(h.logs.textOf(name(pod)).stream().anyMatch(l -> l.endsWith("Received Signals.SIGTERM death signal, shutting down workers")));
        assertTrue(h.logs.textOf(name(pod)).contains("torch.distributed.elastic.multiprocessing.api.SignalException: Process 1 got signal: 15"));
        assertEquals(null, client.pods().inNamespace(NS).withName(name(pod)).get());
        assertEquals(null, client.batch().v1().jobs().inNamespace(NS).withName("job-stop").get());
        assertEquals(16, h.sim.fleet().nodes().stream().mapToInt(n -> h.sim.fleet().freeGpus(n)).sum());
    }

    @Test
    void aLostNodeIsMarkedNotReadyItsPodEvictedAfterTheTolerationAndTheJobFails() {
        h.submit(JobServiceWorkload.build("job-lost", NS, 2, 8, h.labels("node-lost")));
        assertTrue(h.run(Duration.ofMinutes(10), () -> h.sim.fleet().nodes().stream().anyMatch(n -> !n.reachable())));
        SimNode lost = h.sim.fleet().nodes().stream().filter(n -> !n.reachable()).findFirst().orElseThrow();
        Pod onLost = h.podsOf("job-lost").stream().filter(p -> lost.name().equals(p.getSpec().getNodeName())).findFirst().orElseThrow();
        h.run(Duration.ofSeconds(45));
        var node = h.kube().node(lost.name()).orElseThrow();
        assertTrue(node.getStatus().getConditions().stream().anyMatch(c -> "Ready".equals(c.getType())
                && "Unknown".equals(c.getStatus()) && "Kubelet stopped posting node status.".equals(c.getMessage())));
        assertTrue(node.getSpec().getTaints().stream().anyMatch(t -> "node.kubernetes.io/unreachable".equals(t.getKey())
                && "NoExecute".equals(t.getEffect())));
        assertTrue(h.eventsAbout(lost.name()).contains("Normal NodeNotReady: Node " + lost.name() + " status is now: NodeNotReady"));
        assertTrue(h.eventsAbout(name(onLost)).contains("Warning NodeNotReady: Node is not ready"));
        h.run(Duration.ofSeconds(305));
        assertTrue(h.eventsAbout(name(onLost)).contains("Normal TaintManagerEviction: Marking for deletion Pod jobmon-jobs/"
                + name(onLost)));
        assertTrue(h.kube().pod("jobmon-jobs/" + name(onLost)).orElseThrow().getStatus().getConditions().stream()
                .anyMatch(c -> "DisruptionTarget".equals(c.getType()) && "DeletionByTaintManager".equals(c.getReason())));
        assertTrue(jobFailed("job-lost"));
        h.run(Duration.ofMinutes(10));
        assertTrue(lost.reachable(), "the node came back");
        assertTrue(h.eventsAbout(lost.name()).contains("Normal NodeReady: Node " + lost.name() + " status is now: NodeReady"));
    }

    @Test
    void aPodFillingTheRootDiskIsEvictedWithTheKubeletsMessage() {
        Pod pod = submitAndAwaitEnd("job-disk", "evicted", 1);
        assertEquals("Evicted", pod.getStatus().getReason());
        assertTrue(pod.getStatus().getMessage().matches("The node was low on resource: ephemeral-storage\\. Threshold quantity: "
                + "\\d+, available: \\d+Ki\\. Container main was using \\d+Ki, request is 0, has larger consumption of "
                + "ephemeral-storage\\. "), pod.getStatus().getMessage());
        var t = pod.getStatus().getContainerStatuses().get(0).getState().getTerminated();
        assertEquals(List.of(137, "ContainerStatusUnknown"), List.of(t.getExitCode(), t.getReason()));
        assertTrue(pod.getStatus().getConditions().stream().anyMatch(c -> "DisruptionTarget".equals(c.getType())
                && "TerminationByKubelet".equals(c.getReason())));
        String node = pod.getSpec().getNodeName();
        assertTrue(h.eventsAbout(node).contains("Warning EvictionThresholdMet: Attempting to reclaim ephemeral-storage"));
        assertTrue(h.eventsAbout(node).contains("Normal NodeHasDiskPressure: Node " + node + " status is now: NodeHasDiskPressure"));
        assertTrue(h.eventsAbout(name(pod)).contains("Normal Killing: Stopping container main"));
    }

    @Test
    void aHigherPriorityServingPodPreemptsTheJobsPodAndTakesItsNode() {
        h.submit(JobServiceWorkload.build("job-pre", NS, 1, 8, h.labels("preempted")));
        h.submit(JobServiceWorkload.build("job-other", NS, 1, 8, Map.of()));
        assertTrue(h.run(Duration.ofMinutes(5), () -> h.kube().pods().stream()
                .anyMatch(p -> p.getMetadata().getName().startsWith("llm-serving-eval-") && p.getSpec().getNodeName() != null)));
        Pod serving = h.kube().pods().stream().filter(p -> p.getMetadata().getName().startsWith("llm-serving-eval-"))
                .findFirst().orElseThrow();
        List<String> events = h.api.newClient(NS).v1().events().inAnyNamespace().list().getItems().stream()
                .filter(e -> "Preempted".equals(e.getReason())).map(e -> e.getInvolvedObject().getName() + ": " + e.getMessage())
                .toList();
        assertEquals(1, events.size(), events.toString());
        assertTrue(events.get(0).matches("job-pre-[a-z0-9]{5}: Preempted by pod " + serving.getMetadata().getUid()
                + " on node " + serving.getSpec().getNodeName()), events.get(0));
        assertTrue(jobFailed("job-pre"));
        assertTrue(h.eventsAbout(serving.getMetadata().getName()).contains("Normal Scheduled: Successfully assigned inference/"
                + serving.getMetadata().getName() + " to " + serving.getSpec().getNodeName()));
    }

    @Test
    void aPreemptedJobOnAFreeNodeIsPreemptedTooTheServingPodNeedsItsGpus() {
        // issue #29: a 2-GPU job alone on an 8-GPU node; a serving pod asking only 2 GPUs found 6 free and never preempted
        h.submit(JobServiceWorkload.build("job-pre2", NS, 1, 2, h.labels("preempted")));
        assertTrue(h.run(Duration.ofMinutes(5), () -> h.kube().pods().stream()
                .anyMatch(p -> p.getMetadata().getName().startsWith("llm-serving-eval-") && p.getSpec().getNodeName() != null)));
        Pod serving = h.kube().pods().stream().filter(p -> p.getMetadata().getName().startsWith("llm-serving-eval-"))
                .findFirst().orElseThrow();
        assertEquals("8", serving.getSpec().getContainers().get(0).getResources().getRequests().get("nvidia.com/gpu").getAmount());
        List<String> preempted = h.api.newClient(NS).v1().events().inAnyNamespace().list().getItems().stream()
                .filter(e -> "Preempted".equals(e.getReason())).map(e -> e.getInvolvedObject().getName()).toList();
        assertEquals(1, preempted.size(), preempted.toString());
        assertTrue(preempted.get(0).startsWith("job-pre2-"), preempted.toString());
        assertTrue(jobFailed("job-pre2"));
    }

    @Test
    void aDebugAttemptRunsIdleWhateverScenarioItsLabelsName() {
        // job-service's Debug resubmit keeps the failed job's labels and runs `sleep infinity`
        Job debug = JobServiceWorkload.build("job-dbg", NS, 1, 8, h.labels("cuda-oom"));
        debug.getSpec().getTemplate().getSpec().getContainers().get(0).setCommand(List.of("sleep", "infinity"));
        h.submit(debug);
        h.run(Duration.ofMinutes(30)); // six run times: cuda-oom would have failed at 0.4 of one
        Pod pod = h.pod("job-dbg").orElseThrow();
        assertEquals("Running", pod.getStatus().getPhase());
        assertTrue(pod.getStatus().getContainerStatuses().get(0).getState().getRunning() != null);
        assertEquals(List.of(), h.logs.textOf(name(pod)));
        assertTrue(h.job("job-dbg").orElseThrow().getStatus().getConditions() == null
                || h.job("job-dbg").orElseThrow().getStatus().getConditions().isEmpty());
        // the same job without the debug command plays its scenario
        Pod failing = submitAndAwaitEnd("job-nodbg", "cuda-oom", 1);
        assertEquals("Failed", failing.getStatus().getPhase());
    }

    @Test
    void xid79MarksTheGpuUnhealthyAndTheRankFails() {
        Pod pod = submitAndAwaitEnd("job-xid", "xid-79", 1);
        SimNode node = h.sim.fleet().node(pod.getSpec().getNodeName()).orElseThrow();
        GpuDevice gpu = node.gpus().get(7);
        assertEquals(79, gpu.lastXid());
        assertFalse(gpu.healthy());
        assertEquals("7", h.kube().node(node.name()).orElseThrow().getStatus().getAllocatable().get("nvidia.com/gpu").getAmount());
        assertTrue(h.logs.journalOf(node.name()).contains("NVRM: Xid (PCI:0000:CB:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus."));
        assertTrue(h.logs.lines().stream().anyMatch(l -> l.text().matches("I\\d{4} \\d\\d:\\d\\d:\\d\\d\\.\\d{6}       1 health\\.go:169\\] "
                + "XidCriticalError: Xid=79 on Device=" + gpu.uuid() + "; marking device as unhealthy\\.")));
        assertEquals(1, pod.getStatus().getContainerStatuses().get(0).getState().getTerminated().getExitCode());
    }

    @Test
    void anEccDoubleBitErrorCountsAndBreaksTheRun() {
        Pod pod = submitAndAwaitEnd("job-ecc", "ecc", 1);
        GpuDevice gpu = h.sim.fleet().node(pod.getSpec().getNodeName()).orElseThrow().gpus().get(7);
        assertEquals(List.of(1L, 48), List.of(gpu.eccDbeVolatile(), gpu.lastXid()));
        assertTrue(h.logs.textOf(name(pod)).contains("[rank7]: RuntimeError: CUDA error: uncorrectable ECC error encountered"));
    }

    @Test
    void cudaOomPrintsTheOutOfMemoryErrorAndChildFailedError() {
        Pod pod = submitAndAwaitEnd("job-cuda", "cuda-oom", 1);
        List<String> lines = h.logs.textOf(name(pod));
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("[rank5]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 5 has a total capacity of ")));
        assertTrue(lines.contains("torch.distributed.elastic.multiprocessing.errors.ChildFailedError: "));
        assertTrue(lines.contains("  rank      : 5 (local_rank: 5)"));
        var t = pod.getStatus().getContainerStatuses().get(0).getState().getTerminated();
        assertEquals(List.of(1, "Error"), List.of(t.getExitCode(), t.getReason()));
    }

    @Test
    void aCommandNotInTheImageIsAStartErrorWithExit128() {
        Pod pod = submitAndAwaitEnd("job-cmd", "start-command", 1);
        var t = pod.getStatus().getContainerStatuses().get(0).getState().getTerminated();
        assertEquals(List.of(128, "StartError"), List.of(t.getExitCode(), t.getReason()));
        assertTrue(h.eventsAbout(name(pod)).contains("Warning Failed: Error: failed to create containerd task: failed to create "
                + "shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: "
                + "\"python\": executable file not found in $PATH: unknown"));
    }

    @Test
    void aVolumeThatCannotMountKeepsTheContainerCreating() {
        h.submit(JobServiceWorkload.build("job-vol", NS, 1, 8, h.labels("volume-mount")));
        h.run(Duration.ofMinutes(4));
        Pod pod = h.pod("job-vol").orElseThrow();
        assertEquals("ContainerCreating", pod.getStatus().getContainerStatuses().get(0).getState().getWaiting().getReason());
        List<String> events = h.eventsAbout(name(pod));
        assertTrue(events.stream().anyMatch(e -> e.startsWith("Warning FailedMount: MountVolume.SetUp failed for volume \"datasets\" : mount failed: exit status 32")));
        assertTrue(events.stream().anyMatch(e -> e.startsWith("Warning FailedMount: Unable to attach or mount volumes: unmounted volumes=[datasets]")));
    }

    @Test
    void aHangStopsProgressWithTheGpusIdleAndMemoryHeld() {
        h.submit(JobServiceWorkload.build("job-hang", NS, 1, 8, h.labels("hang")));
        h.run(Duration.ofMinutes(3));
        Pod pod = h.pod("job-hang").orElseThrow();
        int before = h.logs.textOf(name(pod)).size();
        h.run(Duration.ofMinutes(20));
        assertEquals(before, h.logs.textOf(name(pod)).size(), "no new lines");
        assertEquals("Running", h.pod("job-hang").orElseThrow().getStatus().getPhase());
        GpuDevice gpu = h.sim.fleet().node(pod.getSpec().getNodeName()).orElseThrow().gpus().get(0);
        var sample = gpu.load().sample(gpu.model(), Duration.ofMinutes(1), new java.util.Random(1));
        assertEquals(0, sample.util());
        assertTrue(sample.fbUsedMiB() > 60_000);
    }

    private static int indexOf(List<String> lines, java.util.function.Predicate<String> p) {
        for (int i = 0; i < lines.size(); i++) {
            if (p.test(lines.get(i))) {
                return i;
            }
        }
        return -1;
    }
}
