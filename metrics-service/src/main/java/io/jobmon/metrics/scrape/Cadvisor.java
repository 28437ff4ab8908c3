package io.jobmon.metrics.scrape;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeAddress;
import io.jobmon.metrics.config.MetricsConfig;
import io.jobmon.metrics.store.SeriesLabels;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The kubelet's cAdvisor endpoint as a scrape target per node (ADR 0030): through the API server's node proxy
 * ({@code GET /api/v1/nodes/<node>/proxy/metrics/cadvisor}, the cluster client's credentials, RBAC
 * {@code nodes/proxy}), or the kubelet directly ({@code <scheme>://<InternalIP>:<kubelet port>/metrics/cadvisor}, the
 * ServiceAccount token, RBAC {@code nodes/metrics}). Of what it exposes only the families the catalogue charts are
 * kept, and only series of a pod (the node's system cgroups have no {@code pod} label).
 */
public final class Cadvisor {

    public static final String JOB = "cadvisor";
    public static final String CPU = "container_cpu_usage_seconds_total";
    public static final String WORKING_SET = "container_memory_working_set_bytes";
    public static final String RSS = "container_memory_rss";
    public static final String MEMORY_LIMIT = "container_spec_memory_limit_bytes";
    public static final String NET_RX = "container_network_receive_bytes_total";
    public static final String NET_TX = "container_network_transmit_bytes_total";
    public static final String FS_READ = "container_fs_reads_bytes_total";
    public static final String FS_WRITE = "container_fs_writes_bytes_total";
    public static final String FS_USAGE = "container_fs_usage_bytes";
    /** Kept besides the charted ones: what an OOM leaves (for diagnosis). */
    public static final String OOM_EVENTS = "container_oom_events_total";

    static final Set<String> KEPT = Set.of(CPU, WORKING_SET, RSS, MEMORY_LIMIT, NET_RX, NET_TX, FS_READ, FS_WRITE,
            FS_USAGE, OOM_EVENTS);

    /** Access modes of {@code discovery.clusters.<name>.cadvisor}. */
    public static final String PROXY = "proxy";
    public static final String KUBELET = "kubelet";

    private Cadvisor() {
    }

    /** Whether a sample of a cAdvisor scrape is stored: a kept family, of a pod. */
    static boolean kept(String name, Map<String, String> labels) {
        return KEPT.contains(name) && SeriesLabels.get(labels, SeriesLabels.POD) != null;
    }

    /**
     * A target per node: through {@code apiServer} (the client's master URL, ending in {@code /}) in proxy mode, else
     * the node's InternalIP and kubelet port; a node without either in kubelet mode is left out.
     */
    static List<ScrapeTarget> targets(String name, MetricsConfig.Cluster cluster, List<Node> nodes, String apiServer) {
        List<ScrapeTarget> out = new ArrayList<>();
        String mode = cluster.cadvisor();
        if (!PROXY.equals(mode) && !KUBELET.equals(mode)) {
            return out;
        }
        for (Node n : nodes) {
            String node = n.getMetadata().getName();
            String url;
            if (PROXY.equals(mode)) {
                url = apiServer + "api/v1/nodes/" + node + "/proxy/metrics/cadvisor";
            } else {
                String ip = internalIp(n);
                Integer port = n.getStatus() == null || n.getStatus().getDaemonEndpoints() == null
                        || n.getStatus().getDaemonEndpoints().getKubeletEndpoint() == null ? null
                                : n.getStatus().getDaemonEndpoints().getKubeletEndpoint().getPort();
                if (ip == null || port == null || port <= 0) {
                    continue;
                }
                url = cluster.kubeletScheme() + "://" + (ip.contains(":") ? "[" + ip + "]" : ip) + ":" + port
                        + "/metrics/cadvisor";
            }
            String pool = cluster.poolLabel().map(l -> n.getMetadata().getLabels() == null ? null
                    : n.getMetadata().getLabels().get(l)).orElse(null);
            out.add(new ScrapeTarget(name + "/cadvisor/" + node, url, JOB, node, name, pool, "k8s:" + name));
        }
        return out;
    }

    static String internalIp(Node n) {
        if (n.getStatus() == null || n.getStatus().getAddresses() == null) {
            return null;
        }
        for (NodeAddress a : n.getStatus().getAddresses()) {
            if ("InternalIP".equals(a.getType())) {
                return a.getAddress();
            }
        }
        return null;
    }
}
