package io.jobmon.events.watch;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.jobmon.contracts.events.CloudEvents;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.jboss.logging.Logger;

/**
 * Watches one cluster with fabric8 informers: the pods labelled with a job id, the Jobs labelled so (a cache, to
 * tell their events), and the events about either. Every add and update is published as the API returned it.
 *
 * <p>The informers list then watch; on watch expiry (410 Gone) they relist, on disconnect they rewatch, and on
 * resync they hand out their cache again. A relist (also after a restart of the service) publishes objects
 * already published: the consumer drops them by resourceVersion and uid. Event deletions (Kubernetes' TTL) are
 * not published: jobmon keeps events longer.
 */
public final class ClusterWatcher {

    private static final Logger LOG = Logger.getLogger(ClusterWatcher.class);

    private final String cluster;
    private final String region;
    private final String namespace;
    private final String label;
    private final long resyncMillis;
    private final KubernetesClient client;
    private final RawPublisher publisher;
    private final PendingEvents pending;
    private SharedIndexInformer<Pod> pods;
    private SharedIndexInformer<Job> jobs;
    private SharedIndexInformer<Event> events;

    public ClusterWatcher(String cluster, String region, String namespace, String label, Duration resync,
            Duration pendingTtl, KubernetesClient client, RawPublisher publisher) {
        this.cluster = cluster;
        this.region = region;
        this.namespace = namespace;
        this.label = label;
        this.resyncMillis = resync.toMillis();
        this.client = client;
        this.publisher = publisher;
        this.pending = new PendingEvents(pendingTtl, Clock.systemUTC());
    }

    /** Starts the pod and Job informers, then (once they have listed) the event informer. */
    public synchronized CompletionStage<Void> start() {
        pods = informer(namespace == null ? client.pods().inAnyNamespace().withLabel(label)
                : client.pods().inNamespace(namespace).withLabel(label), new Handler<>(this::onPod));
        jobs = informer(namespace == null ? client.batch().v1().jobs().inAnyNamespace().withLabel(label)
                : client.batch().v1().jobs().inNamespace(namespace).withLabel(label), new Handler<>(this::onJob));
        CompletableFuture<Void> listed = CompletableFuture.allOf(pods.start().toCompletableFuture(),
                jobs.start().toCompletableFuture());
        return listed.thenCompose(x -> {
            synchronized (this) {
                events = informer(namespace == null ? client.v1().events().inAnyNamespace()
                        : client.v1().events().inNamespace(namespace), new Handler<>(this::onEvent));
                return events.start();
            }
        }).whenComplete((x, e) -> {
            if (e != null) {
                LOG.warnf("watcher of cluster %s did not start: %s", cluster, e.getMessage());
            } else {
                LOG.infof("watching cluster %s (namespace %s, label %s)", cluster, namespace == null ? "*" : namespace, label);
            }
        });
    }

    public synchronized void stop() {
        for (SharedIndexInformer<?> i : new SharedIndexInformer<?>[] {events, jobs, pods}) {
            if (i != null) {
                i.stop();
            }
        }
        events = null;
        jobs = null;
        pods = null;
    }

    /** A pod the store holds as live. */
    public record StoredPod(String namespace, String name, String uid, String jobId, long resourceVersion) {
    }

    /**
     * Publishes the deletion of stored pods that the informer's list does not have: they went while no watcher
     * ran, and no watch will ever report them. Their final state is unknown: the record carries the pod's
     * identity and no status, at the list's resourceVersion (at least one past the stored one: the deletion came
     * after it); the consumer keeps the last state it knew, deleted.
     *
     * @return how many were published
     */
    public synchronized int publishGone(Collection<StoredPod> stored) {
        if (pods == null) {
            return 0;
        }
        long listedAt = parseVersion(pods.lastSyncResourceVersion());
        int gone = 0;
        for (StoredPod p : stored) {
            if (cached(pods, p.namespace(), p.name()) != null) {
                continue;
            }
            Pod deleted = new PodBuilder().withNewMetadata().withNamespace(p.namespace())
                    .withName(p.name()).withUid(p.uid())
                    .withResourceVersion(String.valueOf(Math.max(listedAt, p.resourceVersion() + 1))).addToLabels(label, p.jobId())
                    .endMetadata().build();
            publisher.publish(cluster, region, "DELETED", json(deleted), p.jobId(), p.name());
            gone++;
        }
        return gone;
    }

    private static long parseVersion(String rv) {
        try {
            return rv == null ? 0 : Long.parseLong(rv);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** Every informer runs and watches. */
    public synchronized boolean watching() {
        return pods != null && events != null && jobs != null && pods.isWatching() && jobs.isWatching()
                && events.isWatching();
    }

    public String cluster() {
        return cluster;
    }

    private <T extends HasMetadata> SharedIndexInformer<T> informer(
            io.fabric8.kubernetes.client.dsl.Informable<T> source, ResourceEventHandler<T> handler) {
        SharedIndexInformer<T> informer = source.runnableInformer(resyncMillis);
        informer.addEventHandler(handler);
        // Keep retrying whatever the API server does (connection refused, 5xx, 410 is a relist anyway).
        informer.exceptionHandler((started, t) -> {
            LOG.debugf("watcher of cluster %s: %s (retrying)", cluster, t.getMessage());
            return true;
        });
        return informer;
    }

    private void onPod(String watchType, Pod pod) {
        String jobId = pod.getMetadata().getLabels() == null ? null : pod.getMetadata().getLabels().get(label);
        publisher.publish(cluster, region, watchType, json(pod), jobId, pod.getMetadata().getName());
        if (!"DELETED".equals(watchType)) {
            pending.release(PendingEvents.key("Pod", pod.getMetadata().getNamespace(), pod.getMetadata().getName()))
                    .forEach(e -> onEvent("ADDED", e));
        }
    }

    private void onJob(String watchType, Job job) {
        if (!"DELETED".equals(watchType)) {
            pending.release(PendingEvents.key("Job", job.getMetadata().getNamespace(), job.getMetadata().getName()))
                    .forEach(e -> onEvent("ADDED", e));
        }
    }

    private void onEvent(String watchType, Event event) {
        ObjectReference about = event.getInvolvedObject();
        if ("DELETED".equals(watchType) || about == null || !("Pod".equals(about.getKind()) || "Job".equals(about.getKind()))) {
            return;
        }
        String ns = about.getNamespace() != null ? about.getNamespace() : event.getMetadata().getNamespace();
        HasMetadata owner = "Pod".equals(about.getKind()) ? cached(pods, ns, about.getName()) : cached(jobs, ns, about.getName());
        if (owner == null) {
            pending.hold(PendingEvents.key(about.getKind(), ns, about.getName()), event);
            return;
        }
        String jobId = owner.getMetadata().getLabels().get(label);
        publisher.publish(cluster, region, watchType, json(event), jobId, about.getName());
    }

    private static <T> T cached(SharedIndexInformer<T> informer, String ns, String name) {
        return informer == null ? null : informer.getStore().getByKey(ns + "/" + name);
    }

    private JsonNode json(HasMetadata object) {
        return CloudEvents.MAPPER.valueToTree(client.getKubernetesSerialization().convertValue(object, JsonNode.class));
    }

    int pendingEvents() {
        return pending.size();
    }

    /** Adapts the informer callbacks to (watchType, object); an update with an unchanged resourceVersion is a resync. */
    private final class Handler<T extends HasMetadata> implements ResourceEventHandler<T> {
        private final java.util.function.BiConsumer<String, T> sink;

        Handler(java.util.function.BiConsumer<String, T> sink) {
            this.sink = sink;
        }

        @Override
        public void onAdd(T obj) {
            sink.accept("ADDED", obj);
        }

        @Override
        public void onUpdate(T old, T obj) {
            boolean same = Objects.equals(old.getMetadata().getResourceVersion(), obj.getMetadata().getResourceVersion());
            sink.accept(same ? "SYNC" : "MODIFIED", obj);
        }

        @Override
        public void onDelete(T obj, boolean finalStateUnknown) {
            sink.accept("DELETED", obj);
        }
    }

}
