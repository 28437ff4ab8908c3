package io.jobmon.contracts.attribution;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a node's system line names that ties it to a pod or a GPU (issue #24): the pod UID and container id of a
 * kernel memory-cgroup path, the PCI bus id the NVIDIA driver prints, a GPU UUID (the device plugin's device id),
 * and the pid of an OOM kill. Shared by log-service (which system lines a job's logs show) and the diagnosis engine
 * (which node-level evidence of a bundle is the job's), so both read the same forms the same way.
 *
 * <p>Forms (Linux mm/oom_kill.c {@code dump_oom_summary}, {@code __oom_kill_process}; kubelet cgroup names):
 * <ul>
 * <li>cgroupfs driver (cgroup v1 and v2): {@code task_memcg=/kubepods/burstable/pod4b0d8c3e-1f2a-4c6b-9d3e-0a1b2c3d4e5f/
 * 78ed438b…} ({@code /kubepods/pod<uid>/…} for Guaranteed pods);</li>
 * <li>systemd driver: {@code /kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod4b0d8c3e_1f2a_….slice/
 * cri-containerd-78ed438b….scope} (the UID's dashes written as underscores; {@code docker-}, {@code crio-} too);</li>
 * <li>NVIDIA driver: {@code NVRM: Xid (PCI:0000:4f:00): 79, …}, {@code NVRM: GPU 0000:4f:00.0: GPU has fallen off the
 * bus.}; dcgm-exporter's label {@code pci_bus_id="00000000:4F:00.0"}.</li>
 * </ul>
 */
public final class NodeLines {

    private static final Pattern POD_UID = Pattern.compile(
            "kubepods[/.-](?:[a-z]+[/.-])*?pod([0-9a-fA-F]{8}[-_][0-9a-fA-F]{4}[-_][0-9a-fA-F]{4}[-_][0-9a-fA-F]{4}[-_][0-9a-fA-F]{12})");
    private static final Pattern CONTAINER = Pattern.compile(
            "(?:pod[0-9a-fA-F_-]{36}(?:\\.slice)?/(?:(?:cri-containerd|docker|crio)-)?|(?:cri-containerd|docker|crio)-)([0-9a-f]{64})");
    private static final Pattern PCI = Pattern.compile(
            "(?<![0-9A-Fa-f:])(?:PCI:)?([0-9A-Fa-f]{4,8}):([0-9A-Fa-f]{2}):([0-9A-Fa-f]{2})(?:\\.[0-7])?(?![0-9A-Fa-f])");
    private static final Pattern UUID = Pattern.compile(
            "GPU-[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    private static final Pattern KILLED = Pattern.compile(
            "(?:Killed process|reaped process|oom-kill:.*?,pid=)\\s*(\\d+)");

    private NodeLines() {
    }

    /** The pod UID a kubepods cgroup path in the line names (dashed, lower case), or null. */
    public static String podUid(String line) {
        if (line == null || !line.contains("kubepods")) {
            return null;
        }
        Matcher m = POD_UID.matcher(line);
        return m.find() ? m.group(1).replace('_', '-').toLowerCase(Locale.ROOT) : null;
    }

    /** The 64-hex container id a cgroup path in the line names, or null. */
    public static String containerId(String line) {
        if (line == null) {
            return null;
        }
        Matcher m = CONTAINER.matcher(line);
        return m.find() ? m.group(1) : null;
    }

    /** A container id as the kubelet reports it ({@code containerd://78ed…}) without its runtime prefix. */
    public static String bareContainerId(String id) {
        if (id == null) {
            return null;
        }
        int sep = id.indexOf("://");
        return (sep >= 0 ? id.substring(sep + 3) : id).toLowerCase(Locale.ROOT);
    }

    /**
     * The PCI bus id an NVRM line names, normalised to {@code bus:device} in lower case ({@code 4f:00}) so that the
     * driver's {@code PCI:0000:4f:00}, {@code 0000:4f:00.0} and dcgm-exporter's {@code 00000000:4F:00.0} compare
     * equal (domain 0 on every GPU node we know); null when it names none.
     */
    public static String pciBus(String text) {
        if (text == null) {
            return null;
        }
        Matcher m = PCI.matcher(text);
        while (m.find()) {
            if (Long.parseLong(m.group(1), 16) == 0) {
                return (m.group(2) + ":" + m.group(3)).toLowerCase(Locale.ROOT);
            }
        }
        return null;
    }

    /** The first GPU UUID ({@code GPU-…}) in the text, lower case after the prefix, or null. */
    public static String gpuUuid(String text) {
        if (text == null || !text.contains("GPU-")) {
            return null;
        }
        Matcher m = UUID.matcher(text);
        return m.find() ? "GPU-" + m.group().substring(4).toLowerCase(Locale.ROOT) : null;
    }

    /** The pid an OOM kill line names ({@code Killed process 67}, {@code oom-kill:…,pid=67}, {@code reaped process 67}). */
    public static Integer killedPid(String line) {
        if (line == null) {
            return null;
        }
        Matcher m = KILLED.matcher(line);
        return m.find() ? Integer.valueOf(m.group(1)) : null;
    }

    /** Whether the line opens a kernel OOM report ({@code python invoked oom-killer: …}). */
    public static boolean oomStart(String line) {
        return line != null && line.contains(" invoked oom-killer:");
    }

    /** Whether the line is a memory-cgroup OOM kill (a container hit its own limit), not a node-wide one. */
    public static boolean memcgKill(String line) {
        return line != null && (line.contains("constraint=CONSTRAINT_MEMCG") || line.contains("Memory cgroup out of memory"));
    }
}
