package io.jobmon.logs.attribution;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The pod (UID) and container (runtime id) a kernel memory-cgroup path names, in the forms the kubelet creates: the
 * cgroupfs driver's {@code /kubepods/burstable/pod<uid>/<64-hex id>} (cgroup v1 and v2) and the systemd driver's
 * {@code /kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod<uid with _>.slice/cri-containerd-<id>.scope}
 * (also {@code docker-<id>.scope}, {@code crio-<id>.scope}); a Guaranteed pod has no QoS level.
 */
final class Cgroups {

    /** A cgroup path with the pod level: {@code pod} and a UUID written with dashes or underscores. */
    static final Pattern POD_UID = Pattern.compile(
            "pod([0-9a-f]{8}[-_][0-9a-f]{4}[-_][0-9a-f]{4}[-_][0-9a-f]{4}[-_][0-9a-f]{12})(?![0-9a-f])");
    /** A container's runtime id at the end of a path level. */
    static final Pattern CONTAINER = Pattern.compile("(?<![0-9a-f])([0-9a-f]{64})(?![0-9a-f])");
    /**
     * The paths an OOM event names: {@code task_memcg=} of the one-line summary (kernel ≥ 4.19, mm/oom_kill.c
     * {@code dump_oom_summary}/{@code mem_cgroup_print_oom_context}), then the cgroup v1 era's {@code Task in … killed
     * as a result of limit of …} and {@code Memory cgroup stats for …:} (mm/memcontrol.c), then {@code oom_memcg=}.
     */
    private static final Pattern[] PATHS = {Pattern.compile("task_memcg=([^,\\s]+)"),
            Pattern.compile("Task in (\\S+) killed as a result of limit of"),
            Pattern.compile("Memory cgroup stats for (\\S+?):?(?:\\s|$)"), Pattern.compile("oom_memcg=([^,\\s]+)")};

    /** A pod and container a path names; either may be null. */
    record Owner(String podUid, String containerId) {
    }

    private Cgroups() {
    }

    /** Whether the line names a memory cgroup path of an OOM event (any of the forms above). */
    static boolean namesPath(String text) {
        return text.contains("task_memcg=") || text.contains("Task in /") || text.contains("Memory cgroup stats for /")
                || text.contains("oom_memcg=");
    }

    /** The owner named by the line's most specific path; null when it names none. */
    static Owner owner(String text) {
        for (Pattern p : PATHS) {
            Matcher m = p.matcher(text);
            if (m.find()) {
                return of(m.group(1));
            }
        }
        return null;
    }

    /** The pod and container of one cgroup path ({@link Owner} of two nulls: a path of no pod, e.g. a system unit). */
    static Owner of(String path) {
        Matcher pod = POD_UID.matcher(path);
        String uid = pod.find() ? pod.group(1).replace('_', '-').toLowerCase(Locale.ROOT) : null;
        String cid = null;
        Matcher c = CONTAINER.matcher(path);
        while (c.find()) {
            cid = c.group(1);
        }
        return new Owner(uid, cid);
    }
}
