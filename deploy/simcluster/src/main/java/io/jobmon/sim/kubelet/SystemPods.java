package io.jobmon.sim.kubelet;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.jobmon.sim.cluster.SimNode;
import io.jobmon.sim.control.EventRecorder;
import io.jobmon.sim.control.JobPods;
import io.jobmon.sim.control.Kube;
import io.jobmon.sim.logs.ContainerRef;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

/**
 * The DaemonSet pods every GPU node runs, created Running on each node: dcgm-exporter ({@code gpu-operator},
 * {@code app=nvidia-dcgm-exporter}), node-exporter ({@code monitoring}, {@code app=node-exporter}) and the NVIDIA device
 * plugin ({@code gpu-operator}). The exporters run on the host network, so their podIP and container port are where
 * the sim serves that node's {@code /metrics}: Kubernetes discovery of exporter pods finds the sim's endpoints.
 */
public final class SystemPods {

    public static final String GPU_OPERATOR = "gpu-operator";
    public static final String MONITORING = "monitoring";
    public static final String DCGM_IMAGE = "nvcr.io/nvidia/k8s/dcgm-exporter:3.3.9-3.6.1-ubuntu22.04";
    public static final String NODE_EXPORTER_IMAGE = "quay.io/prometheus/node-exporter:v1.8.2";
    public static final String DEVICE_PLUGIN_IMAGE = "nvcr.io/nvidia/k8s-device-plugin:v0.16.2";

    private final Kube kube;
    private final String hostIp;
    private final Random random;
    private final Map<String, String> daemonSetUids = new HashMap<>();
    private final Map<String, ContainerRef> devicePlugins = new HashMap<>();

    public SystemPods(Kube kube, String hostIp, Random random) {
        this.kube = kube;
        this.hostIp = hostIp;
        this.random = random;
    }

    /** Creates the node's three DaemonSet pods; the exporters' container ports are the given ones. */
    public void create(SimNode node, int dcgmPort, int nodeExporterPort, Instant since) {
        create(node.name(), dcgmPort, nodeExporterPort, since);
    }

    /** The same for a node by name (a replayed bundle's node). */
    public void create(String node, int dcgmPort, int nodeExporterPort, Instant since) {
        kube.create(pod(node, GPU_OPERATOR, "nvidia-dcgm-exporter", Map.of("app", "nvidia-dcgm-exporter",
                "app.kubernetes.io/name", "dcgm-exporter"), "nvidia-dcgm-exporter", DCGM_IMAGE, dcgmPort, since));
        kube.create(pod(node, MONITORING, "node-exporter", Map.of("app", "node-exporter", "app.kubernetes.io/name",
                "node-exporter"), "node-exporter", NODE_EXPORTER_IMAGE, nodeExporterPort, since));
        Pod plugin = kube.create(pod(node, GPU_OPERATOR, "nvidia-device-plugin-daemonset",
                Map.of("app", "nvidia-device-plugin-daemonset"), "nvidia-device-plugin", DEVICE_PLUGIN_IMAGE, 0, since));
        var status = plugin.getStatus().getContainerStatuses().get(0);
        devicePlugins.put(node, new ContainerRef(GPU_OPERATOR, plugin.getMetadata().getName(),
                plugin.getMetadata().getUid(), plugin.getMetadata().getLabels(), Map.of(), node, hostIp,
                "nvidia-device-plugin", status.getContainerID().substring("containerd://".length()), status.getImageID(),
                DEVICE_PLUGIN_IMAGE));
    }

    /** The node's device plugin container, whose log carries its health lines. */
    public ContainerRef devicePlugin(SimNode node) {
        return devicePlugins.get(node.name());
    }

    public ContainerRef devicePlugin(String node) {
        return devicePlugins.get(node);
    }

    private Pod pod(String node, String ns, String daemonSet, Map<String, String> labels, String container,
            String image, int port, Instant since) {
        String uid = daemonSetUids.computeIfAbsent(ns + "/" + daemonSet, k -> UUID.randomUUID().toString());
        String started = EventRecorder.seconds(since);
        PodBuilder b = new PodBuilder().withNewMetadata().withName(daemonSet + "-" + JobPods.suffix(random))
                .withGenerateName(daemonSet + "-").withNamespace(ns).withLabels(labels)
                .addToLabels("controller-revision-hash", "6b8f9c7d5").addToLabels("pod-template-generation", "1")
                .addNewOwnerReference().withApiVersion("apps/v1").withKind("DaemonSet").withName(daemonSet).withUid(uid)
                .withController(true).withBlockOwnerDeletion(true).endOwnerReference().endMetadata()
                .withNewSpec().withNodeName(node).withHostNetwork(true).withRestartPolicy("Always")
                .withPriorityClassName("system-node-critical").withPriority(2_000_001_000)
                .addNewContainer().withName(container).withImage(image).endContainer().endSpec();
        if (port > 0) {
            b.editSpec().editFirstContainer().addNewPort().withName("metrics").withContainerPort(port)
                    .withHostPort(port).withProtocol("TCP").endPort().endContainer().endSpec();
        }
        Pod pod = b.withNewStatus().withPhase("Running").withHostIP(hostIp).addNewHostIP(hostIp).withPodIP(hostIp)
                .addNewPodIP(hostIp).withStartTime(started).withQosClass("BestEffort")
                .addNewCondition().withType("PodReadyToStartContainers").withStatus("True").withLastTransitionTime(started).endCondition()
                .addNewCondition().withType("Initialized").withStatus("True").withLastTransitionTime(started).endCondition()
                .addNewCondition().withType("Ready").withStatus("True").withLastTransitionTime(started).endCondition()
                .addNewCondition().withType("ContainersReady").withStatus("True").withLastTransitionTime(started).endCondition()
                .addNewCondition().withType("PodScheduled").withStatus("True").withLastTransitionTime(started).endCondition()
                .addNewContainerStatus().withName(container).withImage(image).withImageID(Images.imageId(image))
                .withContainerID("containerd://" + Images.containerId(random)).withReady(true).withStarted(true)
                .withRestartCount(0).withNewState().withNewRunning().withStartedAt(started).endRunning().endState()
                .endContainerStatus().endStatus().build();
        return pod;
    }

    /** Pods a DaemonSet owns: the sim's system pods, which its kubelets do not play. */
    public static boolean isSystem(Pod p) {
        return p.getMetadata().getOwnerReferences() != null && p.getMetadata().getOwnerReferences().stream()
                .anyMatch(r -> "DaemonSet".equals(r.getKind()));
    }

    static List<String> namespaces() {
        return List.of(GPU_OPERATOR, MONITORING);
    }
}
