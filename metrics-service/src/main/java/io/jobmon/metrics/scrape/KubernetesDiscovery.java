package io.jobmon.metrics.scrape;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.jobmon.metrics.config.MetricsConfig;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * Finds the exporters of each configured cluster: running pods matching dcgm-exporter's and node_exporter's label
 * selectors become targets {@code http://<podIP>:<port>/metrics} on the pod's node. One replica lists each
 * cluster at a time (a lease per cluster, as event-ingest's watchers); every replica then scrapes its share.
 */
@ApplicationScoped
public class KubernetesDiscovery {

    private static final Logger LOG = Logger.getLogger(KubernetesDiscovery.class);

    private final MetricsConfig config;
    private final Instance<KubernetesClient> defaultClient;
    private final TargetRepository targets;
    private final Leases leases;
    private final ScrapeManager manager;
    private final Map<String, KubernetesClient> owned = new ConcurrentHashMap<>();

    public KubernetesDiscovery(MetricsConfig config, Instance<KubernetesClient> defaultClient, TargetRepository targets,
            Leases leases, ScrapeManager manager) {
        this.config = config;
        this.defaultClient = defaultClient;
        this.targets = targets;
        this.leases = leases;
        this.manager = manager;
    }

    @PreDestroy
    void close() {
        owned.values().forEach(KubernetesClient::close);
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
        KubernetesClient client = client(name, cluster);
        List<ScrapeTarget> out = new ArrayList<>();
        add(out, name, cluster, client, cluster.dcgmSelector(), cluster.dcgmPort(), "dcgm-exporter");
        add(out, name, cluster, client, cluster.nodeSelector(), cluster.nodePort(), "node-exporter");
        return out;
    }

    private static void add(List<ScrapeTarget> out, String name, MetricsConfig.Cluster cluster, KubernetesClient client,
            String selector, int port, String job) {
        Map<String, String> labels = selector(selector);
        List<Pod> pods = cluster.namespace().isPresent()
                ? client.pods().inNamespace(cluster.namespace().get()).withLabels(labels).list().getItems()
                : client.pods().inAnyNamespace().withLabels(labels).list().getItems();
        for (Pod p : pods) {
            if (p.getStatus() == null || !"Running".equals(p.getStatus().getPhase()) || p.getStatus().getPodIP() == null
                    || p.getSpec().getNodeName() == null) {
                continue;
            }
            String pool = cluster.poolLabel().map(l -> p.getMetadata().getLabels() == null ? null
                    : p.getMetadata().getLabels().get(l)).orElse(null);
            String id = name + "/" + p.getMetadata().getNamespace() + "/" + p.getMetadata().getName();
            out.add(new ScrapeTarget(id, "http://" + p.getStatus().getPodIP() + ":" + port + "/metrics", job,
                    p.getSpec().getNodeName(), name, pool, "k8s:" + name));
        }
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

    private KubernetesClient client(String name, MetricsConfig.Cluster cluster) {
        if (cluster.kubeconfig().isEmpty()) {
            return defaultClient.get();
        }
        return owned.computeIfAbsent(name, n -> {
            Path path = Path.of(cluster.kubeconfig().get());
            try {
                Config c = Config.fromKubeconfig(cluster.context().orElse(null), Files.readString(path), path.toString());
                return new KubernetesClientBuilder().withConfig(c).build();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read kubeconfig " + path, e);
            }
        });
    }

    /** Clusters this replica lists. */
    public Set<String> clusters() {
        return config.discovery().clusters().keySet();
    }
}
