package io.jobmon.logs.attribution;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Why a system line (a node's kubelet, containerd, device plugin or kernel line) is shown with a job.
 *
 * @param reason {@code pod}: it names one of the job's pods (its UID in a cgroup path, a container id, its name), or
 *        belongs to a kernel OOM-killer event whose cgroup line names one; {@code gpu}: it names a GPU (PCI bus id,
 *        UUID) a pod of the job held at that time; {@code node}: a condition of the whole node (not ready, pressure,
 *        link down, driver mismatch, panic, machine check), shown to every job on the node
 * @param pod the job's pod it names (reason {@code pod}), or the pod that held the GPU (reason {@code gpu})
 * @param gpu the GPU: its UUID when known, else its PCI bus id as {@code 0000:cb:00.0} (reason {@code gpu})
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(name = "LogAttribution", requiredProperties = {"reason"})
public record Attribution(@Schema(enumeration = {"pod", "gpu", "node"}) String reason, String pod, String gpu) {

    public static final String POD = "pod";
    public static final String GPU = "gpu";
    public static final String NODE = "node";

    static final Attribution NODE_WIDE = new Attribution(NODE, null, null);

    static Attribution pod(String pod) {
        return new Attribution(POD, pod, null);
    }

    static Attribution gpu(String pod, String gpu) {
        return new Attribution(GPU, pod, gpu);
    }
}
