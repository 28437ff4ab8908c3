package io.jobmon.sim.telemetry;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.jobmon.sim.cluster.Fleet;
import io.jobmon.sim.cluster.SimNode;
import io.jobmon.sim.cluster.SimNode.PodFigures;
import io.jobmon.sim.scenario.Run;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The cgroups a node's kubelet (its cAdvisor) knows of: per pod on a node of the fleet its pod cgroup, its sandbox
 * and its containers, each container with the pod's figures at its start, so that its counters begin at 0 with each
 * start (a restart is a new cgroup). Fed on the sim's thread with every pod change; read by the exporters' threads.
 * A container that ended is still reported for {@link #HOUSEKEEPING} with its last figures (an OOM-killed one at its
 * memory limit, with its OOM event), as cAdvisor reports a cgroup until its housekeeping notices it is gone.
 */
public final class CadvisorPods {

    /** How long an ended container (and a finished pod's cgroup) is still reported. */
    public static final Duration HOUSEKEEPING = Duration.ofSeconds(15);

    /**
     * One container (one start of it).
     *
     * @param base the pod's figures when it started
     * @param last its own figures when it ended (null while it runs)
     * @param memoryLimit bytes, 0 = none
     * @param cpuQuota CFS quota in µs per 100 ms period, 0 = none
     */
    public record Life(String name, String id, String image, Instant started, PodFigures base, long memoryLimit,
            long cpuQuota, Instant ended, PodFigures last, boolean oomKilled) {

        Life end(Instant at, PodFigures now, boolean oom) {
            PodFigures own = new PodFigures(now.cpuSeconds() - base.cpuSeconds(), 0, 0, 0,
                    now.writtenBytes() - base.writtenBytes());
            return new Life(name, id, image, started, base, memoryLimit, cpuQuota, at, own, oom);
        }
    }

    /**
     * A pod with a sandbox on the node.
     *
     * @param hostNetwork a DaemonSet pod on the host network: no network of its own, a steady small load
     * @param oomKills OOM kills in the pod cgroup over its life
     * @param ended when the pod became final (its cgroup goes one housekeeping later), or null
     */
    public record PodCgroup(String node, String namespace, String name, String uid, String qos, String sandbox,
            Instant started, boolean hostNetwork, List<Life> containers, int oomKills, Instant ended) {

        /** {@code /kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod<uid>.slice}. */
        public String cgroup() {
            String c = Run.memcg(uid, qos, "x");
            return c.substring(0, c.lastIndexOf('/'));
        }

        public String key() {
            return namespace + "/" + name;
        }
    }

    private final Fleet fleet;
    private final Map<String, PodCgroup> pods = new ConcurrentHashMap<>();

    public CadvisorPods(Fleet fleet) {
        this.fleet = fleet;
    }

    /** The pods of a node, as the exporters read them. */
    public List<PodCgroup> on(String node) {
        return pods.values().stream().filter(p -> p.node().equals(node)).toList();
    }

    /** A pod changed (or was deleted) at {@code now}: its cgroups follow its status. */
    public void observe(Pod pod, boolean deleted, Instant now) {
        String key = pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
        String nodeName = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
        SimNode node = nodeName == null ? null : fleet.node(nodeName).orElse(null);
        if (deleted || node == null || pod.getStatus() == null) {
            pods.remove(key);
            return;
        }
        PodCgroup prev = pods.get(key);
        String phase = pod.getStatus().getPhase();
        boolean terminal = "Succeeded".equals(phase) || "Failed".equals(phase);
        if (prev == null && (pod.getStatus().getPodIP() == null || terminal)) {
            return;
        }
        boolean hostNetwork = Boolean.TRUE.equals(pod.getSpec().getHostNetwork());
        PodFigures figures = hostNetwork ? PodFigures.NONE : node.pod(key, now);
        List<Life> lives = new ArrayList<>();
        int ooms = prev == null ? 0 : prev.oomKills();
        List<ContainerStatus> statuses = pod.getStatus().getContainerStatuses() == null ? List.of()
                : pod.getStatus().getContainerStatuses();
        for (Life l : prev == null ? List.<Life>of() : prev.containers()) {
            if (l.ended() != null) {
                lives.add(l);
            } else if (!runningIds(statuses).contains(l.id())) {
                boolean oom = "OOMKilled".equals(endReason(statuses, l.id()));
                ooms += oom ? 1 : 0;
                lives.add(l.end(now, figures, oom));
            }
        }
        for (ContainerStatus cs : statuses) {
            String id = id(cs);
            if (id == null || cs.getState() == null || cs.getState().getRunning() == null) {
                continue;
            }
            Life known = prev == null ? null : prev.containers().stream().filter(l -> l.id().equals(id)).findFirst()
                    .orElse(null);
            if (known != null && known.ended() == null) {
                lives.add(known);
                continue;
            }
            Container spec = pod.getSpec().getContainers().stream().filter(c -> c.getName().equals(cs.getName()))
                    .findFirst().orElse(null);
            String startedAt = cs.getState().getRunning().getStartedAt();
            lives.add(new Life(cs.getName(), id, cs.getImage(), startedAt == null ? now : Instant.parse(startedAt),
                    figures, limit(spec, "memory"), limit(spec, "cpu") == 0 ? 0 : cpuMillis(spec) * 100, null, null,
                    false));
        }
        long quota = lives.stream().filter(l -> l.ended() == null).mapToLong(Life::cpuQuota).sum();
        if (!hostNetwork && quota > 0 && lives.stream().filter(l -> l.ended() == null).allMatch(l -> l.cpuQuota() > 0)) {
            node.podCpuLimit(key, quota / 100_000.0);
        }
        Instant ended = prev != null && prev.ended() != null ? prev.ended() : terminal ? now : null;
        String started = pod.getStatus().getStartTime();
        pods.put(key, new PodCgroup(nodeName, pod.getMetadata().getNamespace(), pod.getMetadata().getName(),
                pod.getMetadata().getUid(), pod.getStatus().getQosClass(), sandbox(pod.getMetadata().getUid()),
                started == null ? now : Instant.parse(started), hostNetwork, List.copyOf(lives), ooms, ended));
    }

    private static List<String> runningIds(List<ContainerStatus> statuses) {
        return statuses.stream().filter(cs -> cs.getState() != null && cs.getState().getRunning() != null)
                .map(CadvisorPods::id).toList();
    }

    /** The reason the container with this id ended, from the state or the last state that names it. */
    private static String endReason(List<ContainerStatus> statuses, String id) {
        for (ContainerStatus cs : statuses) {
            for (ContainerState s : new ContainerState[] {cs.getState(), cs.getLastState()}) {
                if (s != null && s.getTerminated() != null && s.getTerminated().getContainerID() != null
                        && s.getTerminated().getContainerID().endsWith(id)) {
                    return s.getTerminated().getReason();
                }
            }
        }
        return null;
    }

    private static String id(ContainerStatus cs) {
        String id = cs.getContainerID();
        return id == null ? null : id.substring(id.indexOf("://") + 3);
    }

    private static long limit(Container c, String resource) {
        Map<String, Quantity> limits = c == null || c.getResources() == null ? null : c.getResources().getLimits();
        Quantity q = limits == null ? null : limits.get(resource);
        return q == null ? 0 : Quantity.getAmountInBytes(q).longValue();
    }

    private static long cpuMillis(Container c) {
        Quantity q = c.getResources().getLimits().get("cpu");
        return Quantity.getAmountInBytes(q).multiply(java.math.BigDecimal.valueOf(1000)).longValue();
    }

    /** The pod sandbox's (pause container's) id: 64 hex digits, stable for the pod. */
    static String sandbox(String uid) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(("sandbox/" + uid).getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
