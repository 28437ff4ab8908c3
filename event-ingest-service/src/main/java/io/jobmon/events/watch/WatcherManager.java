package io.jobmon.events.watch;

import io.jobmon.events.config.ClustersConfig;
import io.jobmon.events.config.WatchConfig;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/** Starts a {@link ClusterWatcher} per {@code kubernetes} cluster at startup and stops them at shutdown. */
@ApplicationScoped
public class WatcherManager {

    private static final Logger LOG = Logger.getLogger(WatcherManager.class);

    private final ClustersConfig clusters;
    private final WatchConfig config;
    private final KubernetesClients clients;
    private final RawPublisher publisher;
    private final io.vertx.mutiny.sqlclient.Pool pool;
    private final Map<String, ClusterWatcher> watchers = new ConcurrentHashMap<>();
    private final Map<String, KubernetesClients.Owned> owned = new ConcurrentHashMap<>();

    public WatcherManager(ClustersConfig clusters, WatchConfig config, KubernetesClients clients, RawPublisher publisher,
            io.vertx.mutiny.sqlclient.Pool pool) {
        this.pool = pool;
        this.clusters = clusters;
        this.config = config;
        this.clients = clients;
        this.publisher = publisher;
    }

    void onStart(@Observes StartupEvent start) {
        if (!config.enabled()) {
            LOG.info("watchers disabled (jobmon.watch.enabled=false)");
            return;
        }
        clusters.clusters().forEach((name, cluster) -> {
            if (cluster.type() == ClustersConfig.Type.KUBERNETES) {
                start(name);
            } else {
                LOG.infof("cluster %s is external: fed by its own agent, not watched", name);
            }
        });
    }

    void onStop(@Observes ShutdownEvent stop) {
        watchers.keySet().forEach(this::stop);
    }

    /**
     * Starts watching a configured cluster; completes once its informers have listed and the pods deleted while
     * nobody watched are published as deleted.
     */
    public synchronized CompletionStage<Void> start(String name) {
        ClustersConfig.Cluster cluster = clusters.clusters().get(name);
        if (cluster == null || watchers.containsKey(name)) {
            throw new IllegalStateException("no such cluster to start, or already watched: " + name);
        }
        KubernetesClients.Owned client = clients.forCluster(cluster);
        owned.put(name, client);
        ClusterWatcher watcher = new ClusterWatcher(name, cluster.region(), cluster.namespace().orElse(null),
                config.jobLabel(), config.resync(), config.pendingEventTtl(), client.client(), publisher);
        watchers.put(name, watcher);
        String namespace = cluster.namespace().orElse(null);
        return watcher.start().thenCompose(listed -> storedLivePods(name, namespace)).thenAccept(stored -> {
            int gone = watcher.publishGone(stored);
            if (gone > 0) {
                LOG.infof("cluster %s: %d pods deleted while not watched, published as deleted", name, gone);
            }
        });
    }

    private static final String LIVE_PODS = "SELECT namespace, name, uid, job_id, resource_version FROM events.pod_state"
            + " WHERE cluster = $1 AND NOT deleted AND ($2::text IS NULL OR namespace = $2)";

    private CompletionStage<List<ClusterWatcher.StoredPod>> storedLivePods(String cluster, String namespace) {
        return pool.preparedQuery(LIVE_PODS).execute(io.vertx.mutiny.sqlclient.Tuple.of(cluster, namespace))
                .map(rows -> {
                    List<ClusterWatcher.StoredPod> out = new java.util.ArrayList<>();
                    rows.forEach(r -> out.add(new ClusterWatcher.StoredPod(r.getString("namespace"), r.getString("name"),
                            r.getString("uid"), r.getString("job_id"), r.getLong("resource_version"))));
                    return out;
                }).subscribeAsCompletionStage();
    }

    public synchronized void stop(String name) {
        ClusterWatcher w = watchers.remove(name);
        if (w != null) {
            w.stop();
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
