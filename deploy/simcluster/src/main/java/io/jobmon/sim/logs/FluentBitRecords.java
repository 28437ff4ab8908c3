package io.jobmon.sim.logs;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The records a Fluent Bit DaemonSet puts on Kafka (out_kafka, {@code format json}, its default
 * {@code timestamp_key @timestamp} as a double), with this pipeline:
 *
 * <pre>
 * [INPUT]  tail  /var/log/containers/*.log  multiline.parser cri  Tag kube.*
 * [INPUT]  systemd  Systemd_Filter _SYSTEMD_UNIT=kubelet.service ... (and the kernel)  Tag host.*
 * [FILTER] kubernetes  Match kube.*            (Merge_Log off, Labels on, Annotations on)
 * [FILTER] record_modifier  Match *  Record cluster ${CLUSTER}
 * [OUTPUT] kafka  Match *  Topics jobmon.logs.lines  Format json
 * </pre>
 *
 * A container line: {@code @timestamp}, then the CRI parser's {@code time} (kept), {@code stream}, {@code _p},
 * {@code log}, then the kubernetes filter's {@code kubernetes} map (pod_name, namespace_name, pod_id, labels,
 * annotations, host, pod_ip, container_name, docker_id, container_hash, container_image), then {@code cluster}.
 * A journal line: {@code @timestamp}, the journal's fields as systemd stores them, then {@code cluster}.
 */
public final class FluentBitRecords {

    private FluentBitRecords() {
    }

    public static String container(String cluster, ContainerRef c, Instant time, String stream, String line) {
        FluentBitJson k = new FluentBitJson().field("pod_name", c.pod()).field("namespace_name", c.namespace())
                .field("pod_id", c.podUid());
        if (c.labels() != null && !c.labels().isEmpty()) {
            k.map("labels", c.labels());
        }
        if (c.annotations() != null && !c.annotations().isEmpty()) {
            k.map("annotations", c.annotations());
        }
        k.field("host", c.host());
        if (c.podIp() != null) {
            k.field("pod_ip", c.podIp());
        }
        k.field("container_name", c.container()).field("docker_id", c.containerId())
                .field("container_hash", c.imageId()).field("container_image", c.image());
        return new FluentBitJson().number("@timestamp", seconds(time)).field("time", rfc3339Nano(time))
                .field("stream", stream).field("_p", "F").field("log", line).object("kubernetes", k)
                .field("cluster", cluster).toString();
    }

    public static String journal(String cluster, JournalRef j, Instant time, String message) {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("_BOOT_ID", j.bootId());
        f.put("_MACHINE_ID", j.machineId());
        f.put("_HOSTNAME", j.host());
        f.put("_RUNTIME_SCOPE", "system");
        if ("kernel".equals(j.transport())) {
            f.put("_SOURCE_MONOTONIC_TIMESTAMP", "0");
        }
        f.put("_TRANSPORT", j.transport());
        f.put("PRIORITY", String.valueOf(j.priority()));
        f.put("SYSLOG_FACILITY", "kernel".equals(j.transport()) ? "0" : "3");
        f.put("SYSLOG_IDENTIFIER", j.identifier());
        if (j.unit() != null) {
            f.put("_PID", String.valueOf(j.pid()));
            f.put("_UID", "0");
            f.put("_GID", "0");
            f.put("_COMM", j.identifier());
            f.put("_EXE", "/usr/bin/" + j.identifier());
            f.put("_SYSTEMD_CGROUP", "/system.slice/" + j.unit());
            f.put("_SYSTEMD_UNIT", j.unit());
            f.put("_SYSTEMD_SLICE", "system.slice");
        }
        f.put("MESSAGE", message);
        FluentBitJson out = new FluentBitJson().number("@timestamp", seconds(time));
        f.forEach(out::field);
        return out.field("cluster", cluster).toString();
    }

    /** flb_time_to_double: seconds with the nanoseconds as fraction. */
    static double seconds(Instant t) {
        return t.getEpochSecond() + t.getNano() / 1e9;
    }

    /** Go's RFC3339Nano as containerd writes CRI log times: trailing zeros of the fraction dropped. */
    static String rfc3339Nano(Instant t) {
        String seconds = t.truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
        if (t.getNano() == 0) {
            return seconds;
        }
        String fraction = String.format(java.util.Locale.ROOT, "%09d", t.getNano()).replaceAll("0+$", "");
        return seconds.substring(0, seconds.length() - 1) + "." + fraction + "Z";
    }
}
