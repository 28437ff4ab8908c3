package io.jobmon.logs.attribution;

import io.jobmon.contracts.attribution.NodeLines;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether a system line of a node (kubelet, containerd, device plugin, kernel) is a job's, and why ({@link
 * Attribution}); null: it is not (it names another pod or GPU, or nothing of the job). The rules, first that applies:
 * <ol>
 * <li>a memory cgroup path (OOM summary {@code task_memcg=…}, {@code Task in …}, {@code Memory cgroup stats for …})
 * naming one of the job's pods by UID or container id: {@code pod}; any other path: not the job's;</li>
 * <li>{@code Killed process <pid>}/{@code reaped process <pid>}: the OOM event that killed that pid on the node
 * ({@link OomEvents}) — its owner's;</li>
 * <li>a pod UID, container id or pod name ({@code ns/name}, {@code pod="…"}) of the job: {@code pod}; a UID,
 * container id or {@code pod=} field of another pod: not the job's;</li>
 * <li>a GPU by PCI bus id (any form, {@link PciBusId}) or UUID ({@code GPU-…}, the device plugin's device id) that a
 * pod of the job held on this node at that time (± {@code slack}): {@code gpu}; another GPU: not the job's;</li>
 * <li>a node-wide condition ({@link NodeWide}): {@code node};</li>
 * <li>a kernel line inside an OOM event's block on the node: its owner's.</li>
 * </ol>
 * Pure and thread-safe; one per job and query.
 */
public final class SystemLineAttribution {

    private static final Pattern UID = Pattern.compile(
            "(?<![0-9A-Za-z_-])(GPU-|MIG-)?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?![0-9a-f])");
    private static final Pattern CONTAINER_ID = Pattern.compile("(sha256:)?(?<![0-9a-f])([0-9a-f]{64})(?![0-9a-f])");
    /** klog's structured pod fields: {@code pod="ns/name"}, {@code pods=["ns/a" "ns/b"]}, {@code podName="…"}. */
    private static final Pattern POD_FIELD = Pattern.compile("\\b(?:pod|pods|podName)=(?:\\[([^\\]]*)]|\"([^\"]*)\"|(\\S+))");

    private final JobIdentity identity;
    private final OomEvents oom;
    private final long slack;
    private final Map<String, String> podOfUid = new HashMap<>();
    private final Map<String, String> podOfContainer = new HashMap<>();
    private final Map<String, List<JobIdentity.Holding>> holdingsByNode = new HashMap<>();

    /** @param slackNanos how far outside a holding's {@code [from, to]} a GPU line still counts as the holder's */
    public SystemLineAttribution(JobIdentity identity, OomEvents oom, long slackNanos) {
        this.identity = identity;
        this.oom = oom;
        this.slack = slackNanos;
        for (JobIdentity.Pod p : identity.pods()) {
            p.uids().forEach(u -> podOfUid.put(u.toLowerCase(Locale.ROOT), p.name()));
            p.containerIds().forEach(c -> podOfContainer.put(c.toLowerCase(Locale.ROOT), p.name()));
        }
        for (JobIdentity.Holding h : identity.holdings()) {
            holdingsByNode.computeIfAbsent(h.node(), k -> new ArrayList<>()).add(h);
        }
    }

    /** Why the line is the job's, or null when it is not. */
    public Attribution attribute(String node, String source, long time, String text) {
        // 1. a memory cgroup path
        if (NodeLines.namesCgroup(text)) {
            NodeLines.Owner o = NodeLines.cgroupOwner(text);
            if (o != null) {
                return owned(o);
            }
        }
        // 2. a pid an OOM event killed
        Matcher kill = OomEvents.KILL.matcher(text);
        if (kill.find()) {
            OomEvents.Event e = oom.byPid(node, Integer.parseInt(kill.group(1)), time);
            if (e != null) {
                return e.owner() == null ? null : owned(e.owner());
            }
        }
        // 3. pods by UID, container id, name; and GPUs by UUID (a UUID's other form)
        boolean otherPod = false;
        List<String> gpuUuids = null;
        if (text.indexOf('-') >= 0) {
            Matcher m = UID.matcher(text);
            while (m.find()) {
                if (m.group(1) != null) {
                    (gpuUuids == null ? gpuUuids = new ArrayList<>() : gpuUuids).add(m.group(1) + m.group(2));
                    continue;
                }
                String pod = podOfUid.get(m.group(2));
                if (pod != null) {
                    return Attribution.pod(pod);
                }
                otherPod = true;
            }
        }
        if (hasHexRun(text)) {
            Matcher m = CONTAINER_ID.matcher(text);
            while (m.find()) {
                if (m.group(1) != null) {
                    continue; // an image digest
                }
                String pod = podOfContainer.get(m.group(2));
                if (pod != null) {
                    return Attribution.pod(pod);
                }
                otherPod = true;
            }
        }
        String named = podNamed(text);
        if (named != null) {
            return Attribution.pod(named);
        }
        if (otherPod || namesPodField(text)) {
            return null;
        }
        // 4. GPUs
        boolean otherGpu = false;
        if (gpuUuids != null) {
            for (String u : gpuUuids) {
                JobIdentity.Holding h = held(node, time, u, null);
                if (h != null) {
                    return Attribution.gpu(h.pod(), h.label());
                }
                otherGpu = true;
            }
        }
        if (text.indexOf(':') >= 0) {
            boolean gpuLine = text.contains("NVRM") || text.contains("nvidia") || text.contains("GPU");
            Matcher m = PciBusId.IN_TEXT.matcher(text);
            while (m.find()) {
                String bus = PciBusId.normal(m);
                if (bus == null) {
                    continue;
                }
                JobIdentity.Holding h = held(node, time, null, bus);
                if (h != null) {
                    return Attribution.gpu(h.pod(), h.label());
                }
                // the NVIDIA driver's lines name GPUs; another device's bus id (a NIC's) says nothing of whose it is
                otherGpu |= gpuLine;
            }
        }
        if (otherGpu) {
            return null;
        }
        // 5. the whole node
        if (NodeWide.matches(text)) {
            return Attribution.NODE_WIDE;
        }
        // 6. a line of an OOM block
        if ("kernel".equals(source)) {
            OomEvents.Event e = oom.at(node, time);
            if (e != null && e.owner() != null) {
                return owned(e.owner());
            }
        }
        return null;
    }

    private Attribution owned(NodeLines.Owner o) {
        String pod = o.podUid() == null ? null : podOfUid.get(o.podUid());
        if (pod == null && o.containerId() != null) {
            pod = podOfContainer.get(o.containerId());
        }
        return pod == null ? null : Attribution.pod(pod);
    }

    /** The job's pod the line names as {@code ns/name} or by its name alone (not inside a longer name), or null. */
    private String podNamed(String text) {
        for (JobIdentity.Pod p : identity.pods()) {
            String name = p.name();
            String ns = p.namespace();
            for (int i = text.indexOf(name); i >= 0; i = text.indexOf(name, i + 1)) {
                int end = i + name.length();
                boolean startOk = i == 0 || !nameChar(text.charAt(i - 1));
                boolean endOk = end == text.length() || !nameChar(text.charAt(end))
                        || text.charAt(end) == '.' && (end + 1 == text.length() || !nameChar(text.charAt(end + 1)));
                if (!startOk || !endOk) {
                    continue;
                }
                boolean afterSlash = i > 0 && text.charAt(i - 1) == '/';
                if (!afterSlash || ns.isEmpty() || i - 1 - ns.length() >= 0
                        && text.regionMatches(i - 1 - ns.length(), ns, 0, ns.length())
                        && (i - 1 - ns.length() == 0 || !nameChar(text.charAt(i - 2 - ns.length())))) {
                    return name;
                }
            }
        }
        return null;
    }

    /** Whether the line has a structured pod field (klog {@code pod="…"}): it is about that pod, not the node. */
    private static boolean namesPodField(String text) {
        return text.contains("pod") && POD_FIELD.matcher(text).find();
    }

    private static boolean nameChar(char c) {
        return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c >= 'A' && c <= 'Z' || c == '_';
    }

    private static boolean hasHexRun(String text) {
        int run = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
                if (++run >= 64) {
                    return true;
                }
            } else {
                run = 0;
            }
        }
        return false;
    }

    private JobIdentity.Holding held(String node, long time, String uuid, String bus) {
        for (JobIdentity.Holding h : holdingsByNode.getOrDefault(node, List.of())) {
            boolean same = uuid != null ? uuid.equalsIgnoreCase(h.uuid()) : bus.equals(h.busId());
            if (same && time >= h.from() - slack && (h.to() == Long.MAX_VALUE || time <= h.to() + slack)) {
                return h;
            }
        }
        return null;
    }
}
