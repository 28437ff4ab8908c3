package io.jobmon.diagnosis.engine;

import static io.jobmon.diagnosis.engine.BundleBuilder.tqdm;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Variations per category beyond the public samples, with the wording real systems print. */
class CategoryVariationsTest {

    private static final DiagnosisEngine ENGINE = new DiagnosisEngine();
    private static final String T0 = "2026-07-13T10:00:00Z";

    private static BundleBuilder pending(String reason, String object, String message) {
        return BundleBuilder.job("PENDING").event(T0, "Warning", reason, object, message)
                .event("2026-07-13T10:10:00Z", "Warning", reason, object, message);
    }

    private static BundleBuilder pendingPod(String reason, String message) {
        return pending(reason, "Pod/w-0", message).pod("w-0", "", "Pending", "waiting", "ContainerCreating", null, 0);
    }

    /** A job that trained for a while and then printed {@code lines} and failed with exit 1. */
    private static BundleBuilder crashed(String... lines) {
        BundleBuilder b = BundleBuilder.job("FAILED").jobTime("finishedAt", "2026-07-13T10:31:00Z")
                .pod("w-0", "n1", "Failed", "terminated", "Error", 1, 0)
                .logs(T0, 60, "w-0", tqdm(10, 5000, 20, 60, 60, 25));
        for (String l : lines) {
            b.log("2026-07-13T10:30:00Z", "w-0", l);
        }
        return b;
    }

    /** A job that failed right at start-up with {@code lines}. */
    private static BundleBuilder failedAtStart(String... lines) {
        BundleBuilder b = BundleBuilder.job("FAILED").jobTime("finishedAt", "2026-07-13T10:01:00Z")
                .pod("w-0", "n1", "Failed", "terminated", "Error", 1, 0);
        for (String l : lines) {
            b.log("2026-07-13T10:00:30Z", "w-0", l);
        }
        return b;
    }

    private static Arguments c(String name, Category category, Action action, Supplier<BundleBuilder> bundle) {
        return Arguments.of(name, category, action, bundle);
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                c("kueue quota", Category.QUOTA_EXCEEDED, Action.WAIT, () -> pending("Pending", "Workload/team/job-x",
                        "couldn't assign flavors to pod set main: insufficient unused quota for nvidia.com/gpu in flavor a800, 8 more needed")),
                c("volcano queue quota", Category.QUOTA_EXCEEDED, Action.WAIT, () -> pending("Unschedulable", "PodGroup/job-x",
                        "0/2 tasks in gang unschedulable: queue resource quota insufficient")),
                c("insufficient memory", Category.INSUFFICIENT_RESOURCES, Action.WAIT, () -> pendingPod("FailedScheduling",
                        "0/4 nodes are available: 4 Insufficient memory. preemption: 0/4 nodes are available: 4 No preemption victims found for incoming pod.")),
                c("insufficient gpu, others mismatched", Category.INSUFFICIENT_RESOURCES, Action.WAIT, () -> pendingPod("FailedScheduling",
                        "0/10 nodes are available: 2 Insufficient nvidia.com/gpu, 8 node(s) didn't match Pod's node affinity/selector.")),
                c("volcano gang only", Category.INSUFFICIENT_RESOURCES, Action.WAIT, () -> pending("Unschedulable", "PodGroup/job-x",
                        "0/2 tasks in gang unschedulable: pod group is not ready, 2 Pending, 2 minAvailable; Pending: 2 Unschedulable")),
                c("untolerated taint everywhere", Category.SCHEDULING_CONSTRAINT, Action.TERMINATE, () -> pendingPod("FailedScheduling",
                        "0/6 nodes are available: 6 node(s) had untolerated taint {nvidia.com/gpu: present}. preemption: 0/6 nodes are available: 6 Preemption is not helpful for scheduling.")),
                c("anti-affinity", Category.SCHEDULING_CONSTRAINT, Action.TERMINATE, () -> pendingPod("FailedScheduling",
                        "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules.")),
                c("registry unauthorized", Category.IMAGE_PULL_FAILED, Action.TERMINATE, () -> BundleBuilder.job("ABNORMAL")
                        .pod("w-0", "n1", "Pending", "waiting", "ErrImagePull", null, 0)
                        .event(T0, "Warning", "Failed", "Pod/w-0", "Failed to pull image \"harbor.local/ai/train:2.1\": rpc error: code = Unknown desc = failed to pull and unpack image \"harbor.local/ai/train:2.1\": failed to resolve reference \"harbor.local/ai/train:2.1\": pulling from host harbor.local failed with status code [manifests 2.1]: 401 Unauthorized")),
                c("manifest unknown", Category.IMAGE_PULL_FAILED, Action.TERMINATE, () -> BundleBuilder.job("PENDING")
                        .event(T0, "Warning", "Failed", "Pod/w-0", "Error: ErrImagePull")
                        .event(T0, "Warning", "Failed", "Pod/w-0", "Failed to pull image \"nvcr.io/nvidia/pytorch:99.01-py3\": manifest unknown: manifest unknown")),
                c("attach failed", Category.VOLUME_MOUNT_FAILED, Action.TERMINATE, () -> BundleBuilder.job("PENDING")
                        .pod("w-0", "n1", "Pending", "waiting", "ContainerCreating", null, 0)
                        .event(T0, "Warning", "FailedAttachVolume", "Pod/w-0", "AttachVolume.Attach failed for volume \"pvc-3f2a\" : rpc error: code = DeadlineExceeded desc = context deadline exceeded")),
                c("missing pvc", Category.VOLUME_MOUNT_FAILED, Action.TERMINATE, () -> pendingPod("FailedScheduling",
                        "0/8 nodes are available: persistentvolumeclaim \"datasets-pvc\" not found. preemption: 0/8 nodes are available: 8 Preemption is not helpful for scheduling.")),
                c("command not found 127", Category.START_COMMAND_ERROR, Action.TERMINATE, () -> BundleBuilder.job("FAILED")
                        .pod("w-0", "n1", "Failed", "terminated", "Error", 127, 3)
                        .log(T0, "w-0", "/bin/bash: line 1: torchrun: command not found")),
                c("exec format error", Category.START_COMMAND_ERROR, Action.TERMINATE, () -> BundleBuilder.job("FAILED")
                        .pod("w-0", "n1", "Failed", "terminated", "Error", 1, 2)
                        .log(T0, "w-0", "exec /usr/local/bin/python: exec format error")),
                c("script path wrong", Category.START_COMMAND_ERROR, Action.TERMINATE, () -> BundleBuilder.job("FAILED")
                        .pod("w-0", "n1", "Failed", "terminated", "Error", 2, 0)
                        .log(T0, "w-0", "python3: can't open file '/workspace/train.py': [Errno 2] No such file or directory")),
                c("oomkilled crash loop", Category.CONTAINER_OOM, Action.TERMINATE, () -> BundleBuilder.job("RUNNING")
                        .pod("w-0", "n1", "Running", "waiting", "CrashLoopBackOff", null, 5)
                        .event(T0, "Warning", "BackOff", "Pod/w-0", "Back-off restarting failed container trainer in pod w-0")
                        .event(T0, "Warning", "OOMKilling", "Node/n1", "Memory cgroup out of memory: Killed process 4242 (python) total-vm:300000000kB")),
                c("dataloader worker killed", Category.CONTAINER_OOM, Action.TERMINATE, () -> crashed(
                        "RuntimeError: DataLoader worker (pid 2861) is killed by signal: Killed. ")),
                c("cuda error out of memory", Category.GPU_OOM, Action.TERMINATE, () -> crashed(
                        "Traceback (most recent call last):", "  File \"train.py\", line 9, in <module>",
                        "RuntimeError: CUDA error: out of memory",
                        "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.")),
                c("oom inside a long traceback with a later exception", Category.GPU_OOM, Action.TERMINATE, () -> crashed(
                        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 39.39 GiB",
                        "During handling of the above exception, another exception occurred:",
                        "AttributeError: 'NoneType' object has no attribute 'step'")),
                c("rendezvous timeout", Category.NCCL_COMMUNICATION_ERROR, Action.RESTART, () -> failedAtStart(
                        "torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError")),
                c("nccl remote error", Category.NCCL_COMMUNICATION_ERROR, Action.RESTART, () -> crashed(
                        "[rank3]: torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, remote process exited or there was a network error, NCCL version 2.20.5",
                        "[rank3]: ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.")),
                c("client socket timeout", Category.NCCL_COMMUNICATION_ERROR, Action.RESTART, () -> failedAtStart(
                        "[W socket.cpp:663] [c10d] The client socket has timed out after 1800s while trying to connect to (10.1.2.3, 29500).",
                        "torch.distributed.DistNetworkError: The client socket has timed out after 1800s while trying to connect to (10.1.2.3, 29500).")),
                c("fallen off the bus", Category.GPU_HARDWARE_FAULT, Action.CONTACT_ADMIN, () -> crashed(
                        "NVRM: GPU at PCI:0000:ca:00: GPU-2b1f has fallen off the bus.",
                        "RuntimeError: CUDA error: unspecified launch failure")),
                c("uncorrectable ecc in user traceback", Category.GPU_HARDWARE_FAULT, Action.CONTACT_ADMIN, () -> crashed(
                        "RuntimeError: CUDA error: uncorrectable ECC error encountered")),
                c("node shutdown", Category.NODE_FAILURE, Action.RESTART, () -> BundleBuilder.job("FAILED")
                        .pod("w-0", "n1", "Failed", "terminated", "Error", 137, 0)
                        .event(T0, "Warning", "NodeShutdown", "Pod/w-0", "Pod was terminated in response to imminent node shutdown.")),
                c("pods terminated by node lifecycle controller", Category.NODE_FAILURE, Action.RESTART, () -> BundleBuilder.job("ABNORMAL")
                        .pod("w-0", "n1", "Unknown", "running", null, null, 0)
                        .event(T0, "Normal", "NodeNotReady", "Node/n1", "Node n1 status is now: NodeNotReady")),
                c("kube-scheduler preemption", Category.PREEMPTED, Action.RESTART, () -> BundleBuilder.job("FAILED")
                        .pod("w-0", "n1", "Failed", "terminated", "Error", 143, 0)
                        .event(T0, "Normal", "Preempted", "Pod/w-0", "Preempted by pod 8e7c2d9a-1f3b on node n1")),
                c("kueue preemption", Category.PREEMPTED, Action.RESTART, () -> BundleBuilder.job("QUEUED")
                        .event(T0, "Normal", "Preempted", "Workload/team/job-x", "Preempted to accommodate a workload (UID: 1c2d) due to prioritization in the ClusterQueue")),
                c("memory pressure eviction", Category.EVICTED, Action.RESTART, () -> BundleBuilder.job("FAILED")
                        .pod("w-0", "n1", "Failed", "terminated", "Error", 137, 0)
                        .event(T0, "Warning", "Evicted", "Pod/w-0", "The node was low on resource: memory. Threshold quantity: 100Mi, available: 2048Ki.")),
                c("ephemeral storage limit", Category.EVICTED, Action.RESTART, () -> BundleBuilder.job("FAILED")
                        .pod("w-0", "n1", "Failed", "terminated", "Error", 137, 0)
                        .event(T0, "Warning", "Evicted", "Pod/w-0", "Pod ephemeral local storage usage exceeds the total limit of containers 50Gi.")),
                c("libcuda missing", Category.DEPENDENCY_MISSING, Action.TERMINATE, () -> failedAtStart(
                        "ImportError: libcuda.so.1: cannot open shared object file: No such file or directory")),
                c("incompatible transformers", Category.DEPENDENCY_MISSING, Action.TERMINATE, () -> failedAtStart(
                        "ImportError: cannot import name 'LlamaFlashAttention2' from 'transformers.models.llama.modeling_llama'")),
                c("errno 2 data file", Category.DATA_PATH_ERROR, Action.TERMINATE, () -> failedAtStart(
                        "FileNotFoundError: [Errno 2] No such file or directory: '/data/train-00000.parquet'")),
                c("model dir without config", Category.DATA_PATH_ERROR, Action.TERMINATE, () -> failedAtStart(
                        "OSError: /models/llama-7b does not appear to have a file named config.json. Checkout 'https://huggingface.co//models/llama-7b/tree/None' for available files.")),
                c("resume checkpoint missing", Category.DATA_PATH_ERROR, Action.TERMINATE, () -> failedAtStart(
                        "ValueError: Can't find a valid checkpoint at /output/checkpoint-5000")),
                c("key error on the loss", Category.USER_CODE_ERROR, Action.TERMINATE, () -> crashed(
                        "Traceback (most recent call last):", "  File \"/app/train.py\", line 88, in compute_loss", "KeyError: 'loss'")),
                c("key error", Category.USER_CODE_ERROR, Action.TERMINATE, () -> crashed(
                        "Traceback (most recent call last):", "  File \"/app/collate.py\", line 12, in collate", "KeyError: 'input_ids'")),
                c("device-side assert", Category.USER_CODE_ERROR, Action.TERMINATE, () -> crashed(
                        "../aten/src/ATen/native/cuda/Loss.cu:250: nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0], thread: [5,0,0] Assertion `t >= 0 && t < n_classes` failed.",
                        "RuntimeError: CUDA error: device-side assert triggered")),
                c("an exit code alone names no cause", Category.UNKNOWN, Action.CONTACT_ADMIN, () -> BundleBuilder.job("FAILED")
                        .pod("w-0", "n1", "Failed", "terminated", "Error", 2, 0)),
                c("failed without evidence", Category.UNKNOWN, Action.CONTACT_ADMIN, () -> BundleBuilder.job("ABNORMAL")),
                c("succeeded", Category.HEALTHY, Action.NONE, () -> BundleBuilder.job("SUCCEEDED")
                        .pod("w-0", "n1", "Succeeded", "terminated", "Completed", 0, 0)
                        .log(T0, "w-0", "{'train_runtime': 5400.1, 'train_samples_per_second': 88.2, 'train_loss': 0.91, 'epoch': 3.0}")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void diagnosesTheVariation(String name, Category category, Action action, Supplier<BundleBuilder> bundle) {
        Diagnosis d = ENGINE.analyze(bundle.get().build());
        assertEquals(category, d.category(), () -> name + ": " + d.summary() + " " + d.evidence());
        assertEquals(action, d.action(), name);
    }
}
