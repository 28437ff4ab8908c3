package io.jobmon.events.watch;

import io.jobmon.contracts.config.ClustersConfig;
import io.jobmon.contracts.lease.LeaseTable;
import io.jobmon.events.config.WatchConfig;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * Runs a {@link ClusterWatcher} (and a {@link NodeEventWatcher}) per {@code kubernetes} cluster, in one replica at a
 * time: every replica tries to take each cluster's lease ({@link WatcherLeases}) at startup and every {@code jobmon.watch.lease-renew-every};
 * the holder watches, renews, and stops watching as soon as it lost the lease or could not renew it for a whole
 * lease duration. Duplicates during a handover are absorbed downstream (resourceVersion, uid).
 */
@ApplicationScoped
public class WatcherManager {

    private static final Logger LOG = Logger.getLogger(WatcherManager.class);

    private final ClustersConfig clusters;
    private final WatchConfig config;
    private final KubernetesClients clients;
    private final RawPublisher publisher;
    private final Pool pool;
    private final WatcherLeases leases;
    /** This replica, as the holder of leases. */
    private final String holder;
    private final Map<String, ClusterWatcher> watchers = new ConcurrentHashMap<>();
    private final Map<String, NodeEventWatcher> nodeWatchers = new ConcurrentHashMap<>();
    private final Map<String, CompletionStage<Void>> started = new ConcurrentHashMap<>();
    private final Map<String, KubernetesClients.Owned> owned = new ConcurrentHashMap<>();
    /** When this replica last renewed each lease it holds (nanoTime). */
    private final Map<String, Long> renewed = new ConcurrentHashMap<>();

    public WatcherManager(ClustersConfig clusters, WatchConfig config, KubernetesClients clients, RawPublisher publisher,
            Pool pool, WatcherLeases leases) {
        this.pool = pool;
        this.clusters = clusters;
        this.config = config;
        this.clients = clients;
        this.publisher = publisher;
        this.leases = leases;
        this.holder = LeaseTable.newHolder();
    }

    void onStart(@Observes StartupEvent start) {
        if (!config.enabled()) {
            LOG.info("watchers disabled (jobmon.watch.enabled=false)");
            return;
        }
        clusters.clusters().forEach((name, cluster) -> {
            if (cluster.type() != ClustersConfig.Type.KUBERNETES) {
                LOG.infof("cluster %s is external: fed by its own agent, not watched", name);
            }
        });
        elect().subscribe().with(x -> {
        }, e -> LOG.warnf("watcher election failed: %s", e.getMessage()));
    }

    @Scheduled(every = "${jobmon.watch.lease-renew-every:5s}", delayed = "${jobmon.watch.lease-renew-every:5s}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> renew() {
        return config.enabled() ? elect() : Uni.createFrom().voidItem();
    }

    /**
     * One round of the election, cluster by cluster: renew or take the lease and watch; stop watching a cluster
     * whose lease another replica holds, or that could not be renewed for a lease duration.
     */
    public Uni<Void> elect() {
        List<String> names = clusters.clusters().entrySet().stream()
                .filter(c -> c.getValue().type() == ClustersConfig.Type.KUBERNETES).map(Map.Entry::getKey).toList();
        return Multi.createFrom().iterable(names).onItem()
                .transformToUniAndConcatenate(this::elect).collect().last().replaceWithVoid();
    }

    private Uni<Void> elect(String name) {
        long now = System.nanoTime();
        // Starting a watcher reads the kubeconfig, builds a client and starts informers; stopping closes them: blocking
        // work, done on a worker thread, never on the event loop that completed the lease query (a blocked event loop
        // stalled this replica's Kafka consumers and HTTP requests once a second replica made the election matter).
        return leases.acquire(name, holder, config.leaseDuration()).emitOn(Infrastructure.getDefaultWorkerPool()).map(held -> {
            if (held) {
                renewed.put(name, now);
                if (!watchers.containsKey(name)) {
                    LOG.infof("cluster %s: this replica holds the watcher lease (%s)", name, holder);
                    start(name);
                }
            } else if (watchers.containsKey(name)) {
                LOG.infof("cluster %s: another replica holds the watcher lease, stopping", name);
                stop(name);
            }
            return held;
        }).onFailure().recoverWithItem(e -> {
            Long last = renewed.get(name);
            if (watchers.containsKey(name) && (last == null || now - last > config.leaseDuration().toNanos())) {
                LOG.warnf("cluster %s: watcher lease not renewed for %s (%s), stopping", name, config.leaseDuration(),
                        e.getMessage());
                stop(name);
            }
            return false;
        }).replaceWithVoid();
    }

    void onStop(@Observes ShutdownEvent stop) {
        for (String name : List.copyOf(watchers.keySet())) {
            stop(name);
            try {
                leases.release(name, holder).await().atMost(Duration.ofSeconds(2));
            } catch (RuntimeException e) {
                LOG.debugf("cluster %s: lease not released (%s), it expires", name, e.getMessage());
            }
        }
    }

    /**
     * Starts watching a configured cluster; completes once its informers have listed and the pods deleted while
     * nobody watched are published as deleted.
     */
    public synchronized CompletionStage<Void> start(String name) {
        ClustersConfig.Cluster cluster = clusters.clusters().get(name);
        if (cluster == null) {
            throw new IllegalStateException("no such cluster to watch: " + name);
        }
        if (watchers.containsKey(name)) {
            return started.get(name);
        }
        KubernetesClients.Owned client = clients.forCluster(cluster);
        owned.put(name, client);
        ClusterWatcher watcher = new ClusterWatcher(name, cluster.region(), cluster.watchedNamespace(),
                config.jobLabel(), config.resync(), config.pendingEventTtl(), client.client(), publisher);
        watchers.put(name, watcher);
        if (config.nodeEvents()) {
            NodeEventWatcher nodes = new NodeEventWatcher(name, cluster.region(), config.resync(), client.client(),
                    publisher);
            nodeWatchers.put(name, nodes);
            nodes.start();
        }
        String namespace = cluster.watchedNamespace();
        CompletionStage<Void> done = watcher.start().thenCompose(listed -> storedLivePods(name, namespace)).thenAccept(stored -> {
            int gone = watcher.publishGone(stored);
            if (gone > 0) {
                LOG.infof("cluster %s: %d pods deleted while not watched, published as deleted", name, gone);
            }
        });
        started.put(name, done);
        return done;
    }

    private static final String LIVE_PODS = "SELECT namespace, name, uid, job_id, resource_version FROM pod_state"
            + " WHERE cluster = $1 AND NOT deleted AND ($2::text IS NULL OR namespace = $2)";

    private CompletionStage<List<ClusterWatcher.StoredPod>> storedLivePods(String cluster, String namespace) {
        return pool.preparedQuery(LIVE_PODS).execute(Tuple.of(cluster, namespace))
                .map(rows -> {
                    List<ClusterWatcher.StoredPod> out = new ArrayList<>();
                    rows.forEach(r -> out.add(new ClusterWatcher.StoredPod(r.getString("namespace"), r.getString("name"),
                            r.getString("uid"), r.getString("job_id"), r.getLong("resource_version"))));
                    return out;
                }).subscribeAsCompletionStage();
    }

    public synchronized void stop(String name) {
        started.remove(name);
        ClusterWatcher w = watchers.remove(name);
        if (w != null) {
            w.stop();
        }
        NodeEventWatcher nodes = nodeWatchers.remove(name);
        if (nodes != null) {
            nodes.stop();
        }
        KubernetesClients.Owned client = owned.remove(name);
        if (client != null && client.owned()) {
            client.client().close();
        }
    }

    /** What a restart of the service does to one cluster: the informers' caches are gone and they relist. */
    public CompletionStage<Void> restart(String name) {
        stop(name);
        return start(name);
    }

    /** Cluster name → watching, for the wellness check. */
    public Map<String, Boolean> status() {
        Map<String, Boolean> out = new TreeMap<>();
        watchers.forEach((name, w) -> out.put(name, w.watching()));
        return out;
    }
}
