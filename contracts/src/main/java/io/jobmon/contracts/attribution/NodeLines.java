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

    /** A cgroup path's pod level: {@code pod} and the UID written with dashes (cgroupfs) or underscores (systemd). */
    private static final Pattern POD_UID = Pattern.compile(
            "pod([0-9a-f]{8}[-_][0-9a-f]{4}[-_][0-9a-f]{4}[-_][0-9a-f]{4}[-_][0-9a-f]{12})(?![0-9a-f])");
    /** A container's runtime id at the end of a path level. */
    private static final Pattern CONTAINER = Pattern.compile("(?<![0-9a-f])([0-9a-f]{64})(?![0-9a-f])");
    /**
     * The paths an OOM report names, most specific first: {@code task_memcg=} of the one-line summary (kernel ≥ 4.19,
     * mm/oom_kill.c {@code dump_oom_summary}), the cgroup v1 era's {@code Task in … killed as a result of limit of …}
     * and {@code Memory cgroup stats for …:} (mm/memcontrol.c), then {@code oom_memcg=}.
     */
    private static final Pattern[] PATHS = {Pattern.compile("task_memcg=([^,\\s]+)"),
            Pattern.compile("Task in (\\S+) killed as a result of limit of"),
            Pattern.compile("Memory cgroup stats for (\\S+?):?(?:\\s|$)"), Pattern.compile("oom_memcg=([^,\\s]+)")};
    private static final Pattern PCI = Pattern.compile(
            "(?<![0-9A-Fa-f:])(?:PCI:)?([0-9A-Fa-f]{4,8}):([0-9A-Fa-f]{2}):([0-9A-Fa-f]{2})(?:\\.[0-7])?(?![0-9A-Fa-f])");
    private static final Pattern UUID = Pattern.compile(
            "GPU-[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    private static final Pattern KILLED = Pattern.compile(
            "(?:Killed process|reaped process|oom-kill:.*?,pid=)\\s*(\\d+)");

    private NodeLines() {
    }

    /** The pod (UID, dashed, lower case) and container (runtime id) a cgroup path names; either may be null. */
    public record Owner(String podUid, String containerId) {
    }

    /** Whether the line names a memory cgroup path of an OOM report (any of the forms above). */
    public static boolean namesCgroup(String line) {
        return line != null && (line.contains("task_memcg=") || line.contains("Task in /")
                || line.contains("Memory cgroup stats for /") || line.contains("oom_memcg="));
    }

    /** The owner named by the line's most specific cgroup path; null when it names none. */
    public static Owner cgroupOwner(String line) {
        if (line == null) {
            return null;
        }
        for (Pattern p : PATHS) {
            Matcher m = p.matcher(line);
            if (m.find()) {
                return ofPath(m.group(1));
            }
        }
        return null;
    }

    /** The pod and container of one cgroup path (two nulls: a path of no pod, e.g. a system unit). */
    static Owner ofPath(String path) {
        Matcher pod = POD_UID.matcher(path);
        String uid = pod.find() ? pod.group(1).replace('_', '-').toLowerCase(Locale.ROOT) : null;
        String cid = null;
        Matcher c = CONTAINER.matcher(path);
        while (c.find()) {
            cid = c.group(1);
        }
        return new Owner(uid, cid);
    }

    /** The pod UID the line's cgroup path names, or null. */
    public static String podUid(String line) {
        Owner o = cgroupOwner(line);
        return o == null ? null : o.podUid();
    }

    /** The 64-hex container id the line's cgroup path names, or null. */
    public static String containerId(String line) {
        Owner o = cgroupOwner(line);
        return o == null ? null : o.containerId();
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
        return line != null && (line.contains("constraint=CONSTRAINT_MEMCG")
                || line.contains("Memory cgroup out of memory"));
    }
}
