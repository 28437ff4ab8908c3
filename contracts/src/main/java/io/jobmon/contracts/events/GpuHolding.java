package io.jobmon.contracts.events;

import java.time.Instant;

/**
 * A record on {@code jobmon.gpu.holdings} (key {@code node/uuid}, or {@code node/gpu} when the exporter gives no
 * UUID): pod {@code pod} held this GPU from {@code from} to {@code to} (null: still holding when the record was
 * written). metrics-service derives it from the series dcgm-exporter labels with the pod (its Kubernetes
 * pod-resources mapping); other services use it to tell whose a GPU's lines and series are (an NVRM Xid line names
 * the PCI bus id, the device plugin the UUID). The same holding (node, GPU, namespace, pod, from) is published
 * again when it ends or is seen longer: consumers upsert it.
 *
 * @param gpu the GPU's index on the node (dcgm-exporter's {@code gpu} label)
 * @param uuid {@code GPU-…} (dcgm-exporter's {@code UUID}; the NVIDIA device plugin's device id)
 * @param pciBusId as dcgm-exporter writes it, {@code 00000000:07:00.0}
 * @param device {@code nvidia0}
 */
public record GpuHolding(String cluster, String node, String gpu, String uuid, String pciBusId, String device,
        String modelName, String namespace, String pod, Instant from, Instant to) implements Validatable {

    public static final String TYPE = "io.jobmon.gpu.holding.v1";

    /** The record's Kafka key: the GPU on its node. */
    public String key() {
        return node + "/" + (uuid != null && !uuid.isBlank() ? uuid : gpu);
    }

    @Override
    public void validate() {
        Validatable.require(node != null && !node.isBlank(), "missing 'node'");
        Validatable.require(pod != null && !pod.isBlank(), "missing 'pod'");
        Validatable.require(gpu != null || uuid != null || pciBusId != null, "names no GPU ('gpu', 'uuid' or 'pciBusId')");
        Validatable.require(from != null, "missing 'from'");
        Validatable.require(to == null || !to.isBefore(from), "'to' before 'from'");
    }
}
