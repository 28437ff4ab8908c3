package io.jobmon.events.watch;

import static io.jobmon.events.ingest.Store.count;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.jobmon.contracts.events.Topics;
import io.jobmon.events.ingest.Store;
import io.jobmon.events.k8s.Fixtures;
import io.jobmon.testsupport.KafkaTestClient;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The watcher of cluster {@code mock} (namespace {@code train}) against the fabric8 mock API server: what it
 * publishes, a watch that expires (410 Gone → relist), and a restart (the informers relist; nothing is lost and
 * the store holds nothing twice).
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithKubernetesTestServer
@TestProfile(WatcherProfile.class)
class WatcherTest {

    static final String NS = "train";
    static final Duration T = Duration.ofSeconds(30);

    @KubernetesTestServer
    KubernetesServer server;
    @Inject
    WatcherManager watchers;
    @Inject
    Pool pool;
    @Inject
    WatcherLeases leases;

    KubernetesClient client() {
        return server.getClient();
    }

    Pod pod(String fixture, String job, String name) {
        ObjectNode o = (ObjectNode) Fixtures.retarget(fixture, job, name, UUID.randomUUID().toString(), 1);
        ObjectNode meta = (ObjectNode) o.get("metadata");
        meta.put("namespace", NS);
        meta.remove("resourceVersion");
        return client().getKubernetesSerialization().convertValue(o, Pod.class);
    }

    Event event(String fixture, String podName, String name) {
        ObjectNode o = (ObjectNode) Fixtures.retarget(fixture, "unused", podName, UUID.randomUUID().toString(), 1);
        ObjectNode meta = (ObjectNode) o.get("metadata");
        meta.put("namespace", NS);
        meta.put("name", name);
        meta.remove("resourceVersion");
        ((ObjectNode) o.get("involvedObject")).put("namespace", NS);
        return client().getKubernetesSerialization().convertValue(o, Event.class);
    }

    /** Creates or replaces the pod, then writes its status (the API server ignores status on create and update). */
    void apply(Pod p) {
        var ops = client().pods().inNamespace(NS);
        Pod existing = ops.withName(p.getMetadata().getName()).get();
        if (existing == null) {
            existing = ops.resource(p).create();
        }
        p.getMetadata().setUid(existing.getMetadata().getUid());
        p.getMetadata().setResourceVersion(existing.getMetadata().getResourceVersion());
        ops.resource(p).updateStatus();
    }

    long stored(String sql, Object... args) {
        return count(pool, sql, args);
    }

    @Test
    void labelledPodsAndTheirEventsArePublishedWithClusterRegionAndJob() {
        String job = "jw-" + UUID.randomUUID().toString().substring(0, 8);
        apply(pod("pod-running", job, job + "-0"));
        Pod stranger = pod("pod-running", job, job + "-stranger");
        stranger.getMetadata().getLabels().remove("jobmon.io/job-id");
        client().pods().inNamespace(NS).resource(stranger).create();
        client().v1().events().inNamespace(NS).resource(event("event-backoff-5", job + "-0", job + "-e1")).create();
        client().v1().events().inNamespace(NS).resource(event("event-backoff-5", job + "-stranger", job + "-e2")).create();

        await().atMost(T).until(() -> stored("SELECT count(*) FROM event WHERE job_id = $1", job) == 1);
        assertEquals(1, stored("SELECT count(*) FROM pod_state WHERE cluster = 'mock' AND job_id = $1", job));
        var raw = KafkaTestClient.await(Topics.K8S_RAW, r -> r.value().contains(job + "-0"), 2, T);
        assertTrue(raw.stream().anyMatch(r -> r.key().equals("mock/train/" + job + "-0")));
        assertTrue(raw.get(0).value().contains("\"region\":\"test-region\""));
        assertTrue(KafkaTestClient.await(Topics.K8S_RAW, r -> r.value().contains(job + "-stranger"), 1,
                Duration.ofSeconds(3)).isEmpty(), "pods without the job label and their events are not published");
    }

    /**
     * Events about nodes are listed and watched cluster-wide with the field selector {@code involvedObject.kind=Node}
     * (the API server filters; the mock server cannot filter on that field, so the list is answered as the API server
     * would), published with no job and kept per node.
     */
    @Test
    void eventsAboutNodesAreListedClusterWideWithTheirSelectorPublishedWithoutAJobAndKeptPerNode() throws Exception {
        String node = "gpu-node-" + UUID.randomUUID().toString().substring(0, 8);
        ObjectNode o = (ObjectNode) Fixtures.json("event-node-systemoom");
        ObjectNode meta = (ObjectNode) o.get("metadata");
        meta.put("name", node + ".182a9c4f1b2e7d10");
        meta.put("uid", UUID.randomUUID().toString());
        ((ObjectNode) o.get("involvedObject")).put("name", node);
        Event oom = client().getKubernetesSerialization().convertValue(o, Event.class);

        watchers.stop("mock");
        server.expect().get().withPath("/api/v1/events?fieldSelector=involvedObject.kind%3DNode&resourceVersion=0")
                .andReturn(200, new io.fabric8.kubernetes.api.model.EventListBuilder().withNewMetadata()
                        .withResourceVersion("6001").endMetadata().withItems(oom).build())
                .once();
        watchers.start("mock").toCompletableFuture().get(30, TimeUnit.SECONDS);

        await().atMost(T).until(() -> stored("SELECT count(*) FROM node_event WHERE cluster = 'mock' AND node = $1"
                + " AND reason = 'SystemOOM'", node) == 1);
        assertEquals(0, stored("SELECT count(*) FROM event WHERE object_name = $1", node), "no job's event");
        var raw = KafkaTestClient.await(Topics.K8S_RAW, r -> r.key().equals("mock/default/" + node), 1, T);
        assertTrue(raw.get(0).value().contains("\"kind\":\"Node\""), raw.get(0).value());
    }

    @Test
    void aWatchExpiryRelistsAndARestartLosesNothingAndDoublesNothing() throws Exception {
        String job = "jr-" + UUID.randomUUID().toString().substring(0, 8);
        apply(pod("pod-container-creating", job, job + "-0"));
        client().v1().events().inNamespace(NS).resource(event("event-failedmount", job + "-0", job + "-e1")).create();
        await().atMost(T).until(() -> stored("SELECT count(*) FROM event WHERE job_id = $1", job) == 1);

        // The service goes away; meanwhile the cluster moves on.
        watchers.stop("mock");
        apply(pod("pod-running", job, job + "-0"));
        apply(pod("pod-running", job, job + "-1"));
        client().v1().events().inNamespace(NS).resource(event("event-scheduled", job + "-1", job + "-e2")).create();
        String rv = client().pods().inNamespace(NS).withLabel("jobmon.io/job-id").list().getMetadata().getResourceVersion();
        org.jboss.logging.Logger.getLogger(WatcherTest.class).infof("410 expected at resourceVersion %s", rv);
        // The watch after the relist is answered 410 Gone, as an API server does once its history was compacted
        // past the resourceVersion asked for: the informer must list again.
        server.expect().get().withPath("/api/v1/namespaces/train/pods?allowWatchBookmarks=true"
                + "&labelSelector=jobmon.io%2Fjob-id&resourceVersion=" + rv + "&timeoutSeconds=600&watch=true")
                .andReturn(410, new StatusBuilder().withCode(410).withReason("Expired")
                        .withMessage("too old resource version: " + rv).build())
                .once();
        drainRequests();

        watchers.start("mock").toCompletableFuture().get(30, TimeUnit.SECONDS);

        await().atMost(T).until(() -> stored("SELECT count(*) FROM event WHERE job_id = $1", job) == 2
                && stored("SELECT count(*) FROM pod_state WHERE job_id = $1 AND view->>'phase' = 'Running'", job) == 2);
        await().atMost(T).until(() -> podLists() >= 2);
        await().atMost(T).until(() -> watchers.status().get("mock"));
        // After the relist the watch works again.
        apply(pod("pod-succeeded", job, job + "-1"));
        await().atMost(T).until(() -> stored("SELECT count(*) FROM pod_state WHERE job_id = $1"
                + " AND view->>'phase' = 'Succeeded'", job) == 1);

        assertEquals(1, stored("SELECT count(*) FROM event WHERE uid = (SELECT uid FROM event"
                + " WHERE job_id = $1 AND reason = 'FailedMount')", job), "the republished event is stored once");
        assertEquals(3, stored("SELECT count FROM event WHERE job_id = $1 AND reason = 'FailedMount'", job),
                "its count as Kubernetes reported it, not added up again");
        assertTrue(KafkaTestClient.await(Topics.K8S_RAW, r -> r.value().contains(job + "-e1"), 2, T).size() >= 2,
                "the relist after the restart published the event again");
    }

    @Test
    void aPodDeletedWhileNobodyWatchedIsDeletedAfterTheRestartWithItsLastState() throws Exception {
        String job = "jd-" + UUID.randomUUID().toString().substring(0, 8);
        for (String name : new String[] {job + "-0", job + "-1"}) {
            Pod p = pod("pod-running", job, name);
            p.getMetadata().setFinalizers(null); // deleted at once, not held terminating
            apply(p);
        }
        await().atMost(T).until(() -> stored("SELECT count(*) FROM pod_state WHERE job_id = $1"
                + " AND view->>'phase' = 'Running'", job) == 2);

        watchers.stop("mock");
        client().pods().inNamespace(NS).withName(job + "-1").delete();
        watchers.start("mock").toCompletableFuture().get(30, TimeUnit.SECONDS);

        await().atMost(T).until(() -> stored("SELECT count(*) FROM pod_state WHERE job_id = $1 AND deleted", job) == 1);
        var gone = Store.rows(pool, "SELECT name, view->>'phase' AS phase, view->>'nodeName' AS node"
                + " FROM pod_state WHERE job_id = $1 AND deleted", job).get(0);
        assertEquals(job + "-1", gone.getString("name"));
        assertEquals("Running", gone.getString("phase"), "the last state known is kept");
        assertTrue(gone.getString("node") != null);
        await().atMost(T).until(() -> stored("SELECT count(*) FROM job_state WHERE job_id = $1"
                + " AND status = 'ABNORMAL' AND reason = 'PodDeleted'", job) == 1);
        assertEquals(0, stored("SELECT count(*) FROM pod_state WHERE job_id = $1 AND name = $2 AND deleted",
                job, job + "-0"), "the pod still listed stays");
    }

    @Test
    void aClusterLeaseIsHeldByOneReplicaUntilItLapsesOrIsReleased() throws Exception {
        String cluster = "lease-" + UUID.randomUUID().toString().substring(0, 8);
        Duration d = Duration.ofSeconds(1);
        assertTrue(leases.acquire(cluster, "replica-a", d).await().atMost(T));
        assertTrue(!leases.acquire(cluster, "replica-b", d).await().atMost(T), "held by a");
        assertTrue(leases.acquire(cluster, "replica-a", d).await().atMost(T), "a renews");
        Thread.sleep(1200);
        assertTrue(leases.acquire(cluster, "replica-b", Duration.ofMinutes(1)).await().atMost(T), "lapsed: b takes it");
        assertTrue(!leases.acquire(cluster, "replica-a", d).await().atMost(T), "a lost it");
        leases.release(cluster, "replica-a").await().atMost(T);
        assertTrue(!leases.acquire(cluster, "replica-a", d).await().atMost(T), "a cannot release b's lease");
        leases.release(cluster, "replica-b").await().atMost(T);
        assertTrue(leases.acquire(cluster, "replica-a", d).await().atMost(T), "released: taken at once");
    }

    @Test
    void aReplicaWatchesOnlyWhileItHoldsTheClusterLease() throws Exception {
        watchers.elect().await().atMost(T);
        await().atMost(T).until(() -> watchers.status().getOrDefault("mock", false));
        String mine = Store.rows(pool, "SELECT holder FROM watcher_lease WHERE cluster = 'mock'")
                .get(0).getString("holder");

        // Another replica took the cluster (this one's lease had lapsed): this one stops watching.
        pool.query("UPDATE watcher_lease SET holder = 'other-replica', expires_at = now() + interval '1 hour'"
                + " WHERE cluster = 'mock'").execute().await().atMost(T);
        watchers.elect().await().atMost(T);
        assertTrue(!watchers.status().containsKey("mock"), "not watched by this replica");
        String job = "jl-" + UUID.randomUUID().toString().substring(0, 8);
        apply(pod("pod-running", job, job + "-0"));
        assertTrue(KafkaTestClient.await(Topics.K8S_RAW, r -> r.value().contains(job + "-0"), 1, Duration.ofSeconds(3))
                .isEmpty(), "nothing published by a replica without the lease");

        // The other replica died: once its lease lapsed, this one takes the cluster over and catches up by relisting.
        pool.query("UPDATE watcher_lease SET expires_at = now() - interval '1 second' WHERE cluster = 'mock'")
                .execute().await().atMost(T);
        watchers.elect().await().atMost(T);
        await().atMost(T).until(() -> watchers.status().getOrDefault("mock", false));
        assertEquals(mine, Store.rows(pool, "SELECT holder FROM watcher_lease"
                + " WHERE cluster = 'mock'").get(0).getString("holder"));
        await().atMost(T).until(() -> stored("SELECT count(*) FROM pod_state WHERE job_id = $1", job) == 1);
    }

    @Test
    void aReplicaThatCannotRenewItsLeaseForALeaseDurationStopsWatching() throws Exception {
        watchers.elect().await().atMost(T);
        await().atMost(T).until(() -> watchers.status().getOrDefault("mock", false));
        // The leases cannot be read or written (here: the table is away; as well the database or the network).
        pool.query("ALTER TABLE watcher_lease RENAME TO watcher_lease_away").execute().await().atMost(T);
        try {
            watchers.elect().await().atMost(T);
            assertTrue(watchers.status().containsKey("mock"), "within the lease duration it keeps watching");
            Thread.sleep(2200); // the lease duration of this profile: another replica may have taken the cluster
            watchers.elect().await().atMost(T);
            assertTrue(!watchers.status().containsKey("mock"), "past it, it stops");
        } finally {
            pool.query("ALTER TABLE watcher_lease_away RENAME TO watcher_lease").execute().await().atMost(T);
        }
        watchers.elect().await().atMost(T);
        await().atMost(T).until(() -> watchers.status().getOrDefault("mock", false));
    }

    private int listsSeen;

    private void drainRequests() throws InterruptedException {
        while (server.getKubernetesMockServer().takeRequest(10, TimeUnit.MILLISECONDS) != null) {
            // discard what came before
        }
        listsSeen = 0;
    }

    private int podLists() throws InterruptedException {
        RecordedRequest r;
        while ((r = server.getKubernetesMockServer().takeRequest(10, TimeUnit.MILLISECONDS)) != null) {
            if (r.getPath().startsWith("/api/v1/namespaces/train/pods?labelSelector=") && !r.getPath().contains("watch=true")) {
                listsSeen++;
            }
        }
        return listsSeen;
    }
}
