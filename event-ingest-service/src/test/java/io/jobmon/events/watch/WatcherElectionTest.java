package io.jobmon.events.watch;

import static org.junit.jupiter.api.Assertions.assertFalse;

import io.jobmon.contracts.config.ClustersConfig;
import io.jobmon.events.config.WatchConfig;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The watcher election, without a cluster: a won lease starts the watcher (kubeconfig read, client built, informers
 * started: blocking work) on a worker thread, never on the event loop that completed the lease query. A blocked event
 * loop stalled a replica's Kafka consumers and HTTP requests once two replicas took part in the election.
 */
class WatcherElectionTest {

    @Test
    void aWonLeaseStartsTheWatcherOffTheEventLoop() throws Exception {
        Vertx vertx = Vertx.vertx();
        try {
            WatcherLeases leases = new WatcherLeases(null) {
                @Override
                public Uni<Boolean> acquire(String cluster, String holder, Duration duration) {
                    // Completes on an event loop, as the reactive PostgreSQL client does.
                    return Uni.createFrom().emitter(e -> vertx.runOnContext(x -> e.complete(true)));
                }
            };
            CompletableFuture<Boolean> onEventLoop = new CompletableFuture<>();
            KubernetesClients clients = new KubernetesClients(null) {
                @Override
                public Owned forCluster(ClustersConfig.Cluster cluster) {
                    onEventLoop.complete(Context.isOnEventLoopThread());
                    throw new IllegalStateException("no cluster in this test");
                }
            };
            WatcherManager manager = new WatcherManager(() -> Map.of("sim", cluster()), watchConfig(), clients, null,
                    null, leases);
            manager.elect().await().atMost(Duration.ofSeconds(10));
            assertFalse(onEventLoop.get(10, TimeUnit.SECONDS), "the watcher was started on an event-loop thread");
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    private static ClustersConfig.Cluster cluster() {
        return new ClustersConfig.Cluster() {
            public ClustersConfig.Type type() {
                return ClustersConfig.Type.KUBERNETES;
            }

            public String region() {
                return "local";
            }

            public Optional<String> kubeconfig() {
                return Optional.empty();
            }

            public Optional<String> context() {
                return Optional.empty();
            }

            public String namespace() {
                return "jobmon-jobs";
            }

            public Optional<String> watchNamespace() {
                return Optional.empty();
            }

            public Optional<List<String>> queues() {
                return Optional.empty();
            }

            public Map<String, ClustersConfig.Pool> pools() {
                return Map.of();
            }

            public Map<String, String> gpuProducts() {
                return Map.of();
            }
        };
    }

    private static WatchConfig watchConfig() {
        return new WatchConfig() {
            public boolean enabled() {
                return true;
            }

            public String jobLabel() {
                return "jobmon.io/job-id";
            }

            public Duration resync() {
                return Duration.ofMinutes(10);
            }

            public boolean nodeEvents() {
                return false;
            }

            public Duration pendingEventTtl() {
                return Duration.ofMinutes(1);
            }

            public Duration leaseDuration() {
                return Duration.ofSeconds(15);
            }

            public Duration leaseRenewEvery() {
                return Duration.ofSeconds(5);
            }
        };
    }
}
