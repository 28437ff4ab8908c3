package io.jobmon.sim.replay;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.jobmon.sim.kubelet.Images;
import io.jobmon.sim.kubelet.SystemPods;
import io.jobmon.sim.logs.ContainerRef;
import io.jobmon.sim.logs.JournalRef;
import io.jobmon.sim.logs.LogSink;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A bundle's log lines on the log feed: user lines as the pod's container lines; system lines in syslog form
 * ({@code Mon DD HH:MM:SS host ident[pid]: msg}) as that host's journal records (the kernel's {@code [uptime]} prefix
 * dropped, as journald stores kernel messages), klog-form lines as the node's device plugin's container lines, any
 * other system line as the node's kubelet journal line.
 */
final class ReplayLogs {

    private static final Pattern SYSLOG = Pattern.compile(
            "^[A-Z][a-z]{2} [ \\d]\\d \\d\\d:\\d\\d:\\d\\d (\\S+) ([^:\\[\\s]+)(?:\\[(\\d+)\\])?: (.*)$");
    private static final Pattern KERNEL_TIME = Pattern.compile("^\\[\\s*\\d+\\.\\d+\\] ");
    private static final Pattern KLOG = Pattern.compile("^[IWEF]\\d{4} \\d\\d:\\d\\d:\\d\\d\\.\\d{6}\\s+\\d+ \\S+:\\d+\\] .*");

    private final LogSink logs;
    private final SystemPods systemPods;
    private final String ns;
    private final String jobId;
    private final Map<String, Pod> pods;
    private final Map<String, String> nodeOfPod;
    private final Random random = new Random();

    ReplayLogs(LogSink logs, SystemPods systemPods, String ns, String jobId, Map<String, Pod> pods,
            Map<String, String> nodeOfPod) {
        this.logs = logs;
        this.systemPods = systemPods;
        this.ns = ns;
        this.jobId = jobId;
        this.pods = pods;
        this.nodeOfPod = nodeOfPod;
    }

    /** Ships the line at its (shifted) time; false when it names no pod or node of the bundle. */
    boolean ship(JsonNode l, Instant time) {
        String line = l.path("line").asText("");
        String podName = l.path("pod").asText("");
        String node = nodeOfPod.get(podName);
        if ("system".equals(l.path("stream").asText())) {
            return system(line, node, time);
        }
        Pod pod = pods.get(podName);
        if (pod == null) {
            return false;
        }
        String container = l.path("container").asText(pod.getSpec().getContainers().isEmpty() ? "main"
                : pod.getSpec().getContainers().get(0).getName());
        String image = pod.getSpec().getContainers().stream().filter(c -> container.equals(c.getName()))
                .map(c -> c.getImage()).findFirst().orElse("registry.local/replay/" + container + ":" + jobId);
        String id = pod.getStatus().getContainerStatuses().stream().filter(c -> container.equals(c.getName()))
                .map(ContainerStatus::getContainerID).filter(Objects::nonNull).findFirst()
                .map(cid -> cid.substring(cid.indexOf("://") + 3)).orElse(Images.containerId(random));
        logs.container(new ContainerRef(ns, podName, pod.getMetadata().getUid(), pod.getMetadata().getLabels(), Map.of(),
                node == null ? "" : node, pod.getStatus().getPodIP(), container, id, Images.imageId(image), image), time,
                "stdout", line);
        return true;
    }

    private boolean system(String line, String node, Instant time) {
        Matcher m = SYSLOG.matcher(line);
        if (m.matches()) {
            String host = m.group(1);
            String identifier = m.group(2);
            boolean kernel = "kernel".equals(identifier);
            String message = kernel ? KERNEL_TIME.matcher(m.group(4)).replaceFirst("") : m.group(4);
            logs.journal(journal(host, identifier, kernel ? null : identifier + ".service",
                    m.group(3) == null ? 0 : Integer.parseInt(m.group(3)), kernel), time, message);
            return true;
        }
        if (node == null) {
            return false;
        }
        if (KLOG.matcher(line).matches() && systemPods.devicePlugin(node) != null) {
            logs.container(systemPods.devicePlugin(node), time, "stderr", line);
        } else {
            logs.journal(journal(node, "kubelet", "kubelet.service", 2817, false), time, line);
        }
        return true;
    }

    private static JournalRef journal(String host, String identifier, String unit, int pid, boolean kernel) {
        return new JournalRef(host, UUID.nameUUIDFromBytes((host + "/boot").getBytes()).toString(),
                UUID.nameUUIDFromBytes(host.getBytes()).toString().replace("-", ""), identifier, unit, pid,
                kernel ? "kernel" : "stdout", kernel ? 3 : 6);
    }
}
