package io.jobmon.jobs.kube;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Quantity;
import io.jobmon.jobs.config.JobsConfig;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * The GPUs a {@code kubernetes} cluster has, read from its nodes as the scheduler sees them: each schedulable node's
 * allocatable {@code nvidia.com/gpu}, by its {@code nvidia.com/gpu.product} label (GPU feature discovery's). Kept
 * for {@code jobmon.jobs.node-capacity-ttl}; a cluster that cannot be read (no RBAC to list nodes, unreachable) or
 * has no GPU node has no known capacity, and submission says so instead of refusing.
 */
@ApplicationScoped
public class NodeCapacity {

    private static final Logger LOG = Logger.getLogger(NodeCapacity.class);
    static final String GPU = "nvidia.com/gpu";
    static final String PRODUCT = "nvidia.com/gpu.product";
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(3);

    /** GPUs per product label: in all, and on the largest node (one replica's pod cannot span nodes). */
    public record Snapshot(Map<String, Integer> total, Map<String, Integer> largestNode) {

        /**
         * The products a job's pods of this model may run on, as its workload pins them (WorkloadFactory): the
         * configured product of the model, else every GPU product of the cluster (no node selector).
         */
        public List<String> products(String model, Map<String, String> configured) {
            if (model != null) {
                for (Map.Entry<String, String> e : configured.entrySet()) {
                    if (e.getKey().equalsIgnoreCase(model)) {
                        return List.of(e.getValue());
                    }
                }
            }
            return List.copyOf(total.keySet());
        }

        public int total(List<String> products) {
            return products.stream().mapToInt(p -> total.getOrDefault(p, 0)).sum();
        }

        public int largestNode(List<String> products) {
            return products.stream().mapToInt(p -> largestNode.getOrDefault(p, 0)).max().orElse(0);
        }
    }

    private record Cached(Snapshot snapshot, long readAt) {
    }

    private final ClusterRegistry clusters;
    private final long ttlMillis;
    private final Map<String, Cached> cache = new ConcurrentHashMap<>();

    public NodeCapacity(ClusterRegistry clusters, JobsConfig config) {
        this.clusters = clusters;
        this.ttlMillis = config.nodeCapacityTtl().toMillis();
    }

    /** The cluster's GPUs, or empty when it is not a {@code kubernetes} cluster or they cannot be read. */
    public Uni<Optional<Snapshot>> of(String cluster) {
        if (cluster == null || !clusters.isKubernetes(cluster)) {
            return Uni.createFrom().item(Optional.empty());
        }
        Cached kept = cache.get(cluster);
        if (kept != null && System.currentTimeMillis() - kept.readAt() < ttlMillis) {
            return Uni.createFrom().item(Optional.of(kept.snapshot()));
        }
        return Uni.createFrom().item(() -> read(clusters.client(cluster).nodes().list().getItems()))
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
                .ifNoItem().after(READ_TIMEOUT).fail()
                .map(s -> {
                    cache.put(cluster, new Cached(s, System.currentTimeMillis()));
                    return s.total().isEmpty() ? Optional.<Snapshot>empty() : Optional.of(s);
                })
                .onFailure().recoverWithItem(e -> {
                    LOG.debugf("cannot read the nodes of cluster %s: %s", cluster, e.toString());
                    return kept == null || kept.snapshot().total().isEmpty() ? Optional.empty()
                            : Optional.of(kept.snapshot());
                });
    }

    static Snapshot read(List<Node> nodes) {
        Map<String, Integer> total = new HashMap<>();
        Map<String, Integer> largest = new HashMap<>();
        for (Node n : nodes) {
            if (n.getSpec() != null && Boolean.TRUE.equals(n.getSpec().getUnschedulable())) {
                continue;
            }
            Quantity q = n.getStatus() == null || n.getStatus().getAllocatable() == null ? null
                    : n.getStatus().getAllocatable().get(GPU);
            int gpus = q == null ? 0 : Quantity.getAmountInBytes(q).intValue();
            if (gpus <= 0) {
                continue;
            }
            Map<String, String> labels = n.getMetadata().getLabels();
            String product = labels == null ? "" : labels.getOrDefault(PRODUCT, "");
            total.merge(product, gpus, Integer::sum);
            largest.merge(product, gpus, Math::max);
        }
        return new Snapshot(total, largest);
    }
}
