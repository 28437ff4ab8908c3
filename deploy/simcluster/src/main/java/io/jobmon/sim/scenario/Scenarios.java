package io.jobmon.sim.scenario;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The scenarios by name. A pod asks for one with the label {@code jobmon.io/sim-scenario} (the name) or
 * {@code sim.jobmon.io/scenario} (a key job-service accepts in a spec's {@code labels}: it reserves
 * {@code jobmon.io/}); without either, or with an unknown name, it plays {@code healthy}.
 */
public final class Scenarios {

    public static final String LABEL = "jobmon.io/sim-scenario";
    public static final String LABEL_ALT = "sim.jobmon.io/scenario";
    public static final String HEALTHY = "healthy";
    public static final String QUOTA = "quota";
    public static final String SERVING = "serving";
    public static final String REPLAY = "replay";
    public static final String DEBUG = "debug";
    /** A Debug attempt's command (job-service's default {@code sleep infinity}), alone or ending a shell line. */
    private static final java.util.regex.Pattern DEBUG_COMMAND =
            java.util.regex.Pattern.compile("(^|.*[\\s;&|'\"])sleep\\s+inf(inity)?['\"]?\\s*");

    private static final Map<String, Scenario> ALL = new LinkedHashMap<>();

    static {
        add(HEALTHY, "steady tqdm progress with loss lines, a checkpoint halfway, GPU util ~93 %, summary, exit 0 "
                + "after the run time", Runs::healthy);
        add("oom", "datasets.map preprocessing grows host memory to the container limit; kernel OOM-killer journal "
                + "lines; OOMKilled, exit 137 (restarts with BackOff under restartPolicy OnFailure/Always)", Faults::oom);
        add("cuda-oom", "rank 5 (or the last) hits torch.OutOfMemoryError: CUDA out of memory in backward, device "
                + "memory near full before; torchrun SIGTERMs the others, ChildFailedError; exit 1", Crashes::cudaOom);
        add("nccl-timeout", "NCCL WARN NET/IB completion error on worker 0, all ranks stall at 0 % util, then the NCCL "
                + "watchdog times out on every rank (DistBackendError); exit 1", Faults::ncclTimeout);
        add("hang", "progress stops, no error: GPUs at 0 % and idle power with memory held; runs until stopped",
                Runs::hang);
        add("image-pull", "image tag not found: Pulling, Failed (rpc error: code = NotFound), ErrImagePull, "
                + "Back-off pulling image, ImagePullBackOff, retried with back-off; pod stays Pending", Blocked::imagePull);
        add("xid-79", "kernel NVRM Xid 79 (GPU has fallen off the bus), device plugin marks the GPU unhealthy "
                + "(allocatable drops), XID_ERRORS=79, CUDA error in the rank; exit 1", Faults::xid79);
        add("ecc", "kernel Xid 48 (double bit ECC) and Xid 63 (row remapping), ECC_DBE_VOL_TOTAL+1, device unhealthy, "
                + "CUDA error: uncorrectable ECC error encountered; exit 1", Faults::ecc);
        add("resume-trap", "resumed from a checkpoint: the bar starts at the saved step, its printed rate keeps "
                + "falling while the real speed is steady; healthy, exit 0", Runs::resumeTrap);
        add("dataloader-slow", "DataLoader worker warning, torchvision lines with data time ~1.4 s of ~1.8 s, "
                + "saw-tooth GPU util, CPUs busy; exit 0 after the run time", Runs::dataloaderSlow);
        add("throttling", "GPUs heat 71->90 C, CLOCK_THROTTLE_REASONS 0x20 then 0x60, SM clock down a third, real "
                + "step rate falls with util ~97 %; exit 0", Runs::throttling);
        add("node-lost", "the last pod's node stops answering: NodeNotReady, pod Ready=False, TaintManagerEviction "
                + "after 300 s, Job fails; other pods stall; node back after 10 min", Faults::nodeLost);
        add(QUOTA, "ResourceQuota admission denies the pods: FailedCreate 'exceeded quota: <project>-gpu, "
                + "requested: requests.nvidia.com/gpu=N, used: ..., limited: ...', retried; no pod", Runs::healthy);
        add("preempted", "a higher-priority serving pod needs the node's free GPUs and the job's: DisruptionTarget/"
                + "PreemptionByScheduler, "
                + "Preempted event, Killing, torchrun SIGTERM lines, exit 143; the serving pod takes the node",
                Faults::preempted);
        add("evicted", "checkpoints to /tmp fill the node's disk: EvictionThresholdMet, NodeHasDiskPressure, Evicted "
                + "(kubelet's message), Killing; pod Failed/Evicted, exit 137", Faults::evicted);
        add("missing-module", "every rank: ModuleNotFoundError: No module named 'flash_attn'; ChildFailedError; exit 1",
                Crashes::missingModule);
        add("bad-data-path", "FileNotFoundError: Unable to find '/mnt/data/sft/train_v3.jsonl' (datasets); exit 1",
                Crashes::badDataPath);
        add("user-error", "RuntimeError (tensor size mismatch) from the user's loss code; exit 1", Crashes::userError);
        add("start-command", "exec: \"python\": executable file not found in $PATH (StartError, exit 128)",
                Crashes::startCommand);
        add("volume-mount", "NFS mount fails: FailedMount events, container stays ContainerCreating",
                Blocked::volumeMount);
        add("slowdown", "the real step rate halves halfway with util halved and no thermal sign; exit 0",
                Runs::slowdown);
        add("unknown", "SIGTERM from nobody mid-run: torchrun SIGTERM lines, exit 143, no event", Runs::unknown);
        add(REPLAY, "(for ./jobmon replay) the Job gets no pods from the sim: a bundle replay supplies its pods, "
                + "events, lines and series", Runs::healthy);
        add(DEBUG, "(a Debug attempt: its command is sleep infinity) the container runs idle until stopped: no lines, "
                + "GPUs idle, no failure whatever scenario the job's labels name", Runs::idle);
        add(SERVING, "(the sim's own) an inference server, the preemptor of 'preempted': vLLM start-up lines, serves "
                + "at ~38 % util until deleted", Runs::serving);
    }

    private Scenarios() {
    }

    private static void add(String name, String plays, java.util.function.Function<Run, Script> script) {
        ALL.put(name, new Scenario(name, plays, script));
    }

    public static Collection<Scenario> all() {
        return ALL.values();
    }

    /** The scenario by name; {@code healthy} for null or unknown names. */
    public static Scenario named(String name) {
        Scenario s = name == null ? null : ALL.get(name.toLowerCase(Locale.ROOT));
        return s != null ? s : ALL.get(HEALTHY);
    }

    /**
     * The name the object's labels ask for (null: none); {@code debug} for a pod or Job whose container runs a Debug
     * attempt's command, whatever its labels say (a Debug resubmit keeps the failed job's labels).
     */
    public static String nameOf(HasMetadata o) {
        if (debugAttempt(o)) {
            return DEBUG;
        }
        Map<String, String> labels = o.getMetadata().getLabels();
        if (labels == null) {
            return null;
        }
        return labels.getOrDefault(LABEL, labels.get(LABEL_ALT));
    }

    /** Whether the pod's (or Job template's) first container runs {@code sleep infinity}, as a Debug attempt does. */
    static boolean debugAttempt(HasMetadata o) {
        io.fabric8.kubernetes.api.model.PodSpec spec = o instanceof io.fabric8.kubernetes.api.model.Pod p ? p.getSpec()
                : o instanceof io.fabric8.kubernetes.api.model.batch.v1.Job j && j.getSpec() != null
                        && j.getSpec().getTemplate() != null ? j.getSpec().getTemplate().getSpec() : null;
        if (spec == null || spec.getContainers() == null || spec.getContainers().isEmpty()) {
            return false;
        }
        io.fabric8.kubernetes.api.model.Container c = spec.getContainers().get(0);
        java.util.List<String> line = new java.util.ArrayList<>();
        if (c.getCommand() != null) {
            line.addAll(c.getCommand());
        }
        if (c.getArgs() != null) {
            line.addAll(c.getArgs());
        }
        return DEBUG_COMMAND.matcher(String.join(" ", line)).matches();
    }
}
