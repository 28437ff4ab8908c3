package io.jobmon.metrics.scrape;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jobmon.metrics.config.MetricsConfig;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * Finds the exporters of each configured cluster: running pods matching dcgm-exporter's and node_exporter's label
 * selectors become targets {@code http://<podIP>:<port>/metrics} on the pod's node, and every node's kubelet
 * cAdvisor a target ({@link Cadvisor}; a cluster whose nodes cannot be listed has none). One replica lists each
 * cluster at a time (a lease per cluster, as event-ingest's watchers); every replica then scrapes its share.
 */
@ApplicationScoped
public class KubernetesDiscovery {

    private static final Logger LOG = Logger.getLogger(KubernetesDiscovery.class);

    private final MetricsConfig config;
    private final ClusterClients clients;
    private final TargetRepository targets;
    private final Leases leases;
    private final ScrapeManager manager;

    public KubernetesDiscovery(MetricsConfig config, ClusterClients clients, TargetRepository targets,
            Leases leases, ScrapeManager manager) {
        this.config = config;
        this.clients = clients;
        this.targets = targets;
        this.leases = leases;
        this.manager = manager;
    }

    @Scheduled(every = "${jobmon.metrics.discovery.every:30s}", delayed = "1s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> scheduled() {
        if (config.discovery().clusters().isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return discoverAll().onFailure().invoke(e -> LOG.warnf("discovery failed: %s", e.getMessage()))
                .onFailure().recoverWithNull().replaceWithVoid();
    }

    /** Lists every cluster this replica holds the discovery lease of; returns the targets found per cluster. */
    public Uni<Map<String, List<ScrapeTarget>>> discoverAll() {
        Map<String, List<ScrapeTarget>> found = new ConcurrentHashMap<>();
        List<String> names = List.copyOf(config.discovery().clusters().keySet());
        List<String> leaseNames = names.stream().map(n -> "discovery:" + n).toList();
        return leases.acquire(leaseNames, manager.holder(), config.scrape().leaseDuration())
                .chain(held -> Multi.createFrom().iterable(names).filter(n -> held.contains("discovery:" + n))
                        .onItem().transformToUniAndConcatenate(n -> discover(n).invoke(t -> found.put(n, t)))
                        .collect().last())
                .replaceWith(found);
    }

    Uni<List<ScrapeTarget>> discover(String name) {
        MetricsConfig.Cluster cluster = config.discovery().clusters().get(name);
        return Uni.createFrom().item(() -> list(name, cluster)).runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
                .call(found -> targets.replace("k8s:" + name, found));
    }

    /** Blocking: the fabric8 list calls. */
    List<ScrapeTarget> list(String name, MetricsConfig.Cluster cluster) {
        KubernetesClient client = clients.of(name);
        List<Node> nodes = null;
        if (!"off".equals(cluster.cadvisor()) || cluster.poolLabel().isPresent()) {
            try {
                nodes = client.nodes().list().getItems();
            } catch (RuntimeException e) {
                LOG.warnf("cluster %s: nodes not listed, no cAdvisor targets (%s)", name, e.getMessage());
            }
        }
        // an exporter pod without the pool label is in its node's pool
        Map<String, String> pools = new java.util.HashMap<>();
        if (nodes != null && cluster.poolLabel().isPresent()) {
            for (Node n : nodes) {
                String pool = n.getMetadata().getLabels() == null ? null
                        : n.getMetadata().getLabels().get(cluster.poolLabel().get());
                if (pool != null) {
                    pools.put(n.getMetadata().getName(), pool);
                }
            }
        }
        List<ScrapeTarget> out = new ArrayList<>();
        add(out, name, cluster, client, cluster.dcgmSelector(), cluster.dcgmPort(), "dcgm-exporter", pools);
        add(out, name, cluster, client, cluster.nodeSelector(), cluster.nodePort(), "node-exporter", pools);
        if (nodes != null && !"off".equals(cluster.cadvisor())) {
            String api = client.getMasterUrl().toString();
            out.addAll(Cadvisor.targets(name, cluster, nodes, api.endsWith("/") ? api : api + "/"));
        }
        return out;
    }

    private static void add(List<ScrapeTarget> out, String name, MetricsConfig.Cluster cluster, KubernetesClient client,
            String selector, String port, String job, Map<String, String> nodePools) {
        Map<String, String> labels = selector(selector);
        List<Pod> pods = cluster.namespace().isPresent()
                ? client.pods().inNamespace(cluster.namespace().get()).withLabels(labels).list().getItems()
                : client.pods().inAnyNamespace().withLabels(labels).list().getItems();
        for (Pod p : pods) {
            if (p.getStatus() == null || !"Running".equals(p.getStatus().getPhase()) || p.getStatus().getPodIP() == null
                    || p.getSpec().getNodeName() == null) {
                continue;
            }
            Integer number = port(p, port);
            if (number == null) {
                LOG.debugf("%s/%s declares no container port named %s", p.getMetadata().getNamespace(),
                        p.getMetadata().getName(), port);
                continue;
            }
            String pool = cluster.poolLabel().map(l -> p.getMetadata().getLabels() == null ? null
                    : p.getMetadata().getLabels().get(l)).orElse(nodePools.get(p.getSpec().getNodeName()));
            String id = name + "/" + p.getMetadata().getNamespace() + "/" + p.getMetadata().getName();
            out.add(new ScrapeTarget(id, "http://" + p.getStatus().getPodIP() + ":" + number + "/metrics", job,
                    p.getSpec().getNodeName(), name, pool, "k8s:" + name));
        }
    }

    /**
     * The port to scrape: the configured number, or the number of the pod's container port of that name (as a
     * ServiceMonitor's {@code port: metrics}); null when the pod declares no port of that name.
     */
    static Integer port(Pod p, String port) {
        if (!port.isEmpty() && port.chars().allMatch(Character::isDigit)) {
            return Integer.valueOf(port);
        }
        for (Container c : p.getSpec().getContainers()) {
            for (ContainerPort cp : c.getPorts()) {
                if (port.equals(cp.getName())) {
                    return cp.getContainerPort();
                }
            }
        }
        return null;
    }

    /** {@code a=b,c=d} → labels (equality selectors only). */
    static Map<String, String> selector(String s) {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        for (String part : s.split(",")) {
            String[] kv = part.trim().split("=", 2);
            if (kv.length == 2 && !kv[0].isBlank()) {
                out.put(kv[0].trim(), kv[1].trim());
            }
        }
        return out;
    }

    /** Clusters this replica lists. */
    public Set<String> clusters() {
        return config.discovery().clusters().keySet();
    }
}
