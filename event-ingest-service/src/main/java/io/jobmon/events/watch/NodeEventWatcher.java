package io.jobmon.events.watch;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.jobmon.contracts.events.CloudEvents;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * Watches one cluster's events about nodes ({@code involvedObject.kind=Node}, in every namespace: the kubelet, the
 * node controller and node-problem-detector write them to {@code default}): NodeNotReady, NodeHasDiskPressure,
 * SystemOOM, Rebooted, KernelOops, ... Each add and update is published on {@code jobmon.k8s.raw} as the API returned
 * it, with no job (the consumer keeps them per node). Needs {@code list} and {@code watch} on events cluster-wide;
 * without that permission it keeps retrying and the job watchers are unaffected.
 */
final class NodeEventWatcher {

    private static final Logger LOG = Logger.getLogger(NodeEventWatcher.class);

    private final String cluster;
    private final String region;
    private final long resyncMillis;
    private final KubernetesClient client;
    private final RawPublisher publisher;
    private final AtomicBoolean warned = new AtomicBoolean();
    private SharedIndexInformer<Event> informer;

    NodeEventWatcher(String cluster, String region, Duration resync, KubernetesClient client, RawPublisher publisher) {
        this.cluster = cluster;
        this.region = region;
        this.resyncMillis = resync.toMillis();
        this.client = client;
        this.publisher = publisher;
    }

    synchronized CompletionStage<Void> start() {
        informer = client.v1().events().inAnyNamespace().withField("involvedObject.kind", "Node")
                .runnableInformer(resyncMillis);
        informer.addEventHandler(new ResourceEventHandler<Event>() {
            @Override
            public void onAdd(Event e) {
                onEvent("ADDED", e);
            }

            @Override
            public void onUpdate(Event old, Event e) {
                boolean same = Objects.equals(old.getMetadata().getResourceVersion(), e.getMetadata().getResourceVersion());
                onEvent(same ? "SYNC" : "MODIFIED", e);
            }

            @Override
            public void onDelete(Event e, boolean finalStateUnknown) {
                // Kubernetes' TTL: jobmon keeps events longer
            }
        });
        informer.exceptionHandler((started, t) -> {
            if (warned.compareAndSet(false, true)) {
                LOG.warnf("node events of cluster %s not watched yet (retrying): %s", cluster, t.getMessage());
            }
            return true;
        });
        return informer.start().whenComplete((x, e) -> {
            if (e == null) {
                LOG.infof("watching node events of cluster %s", cluster);
            }
        });
    }

    synchronized void stop() {
        if (informer != null) {
            informer.stop();
            informer = null;
        }
    }

    synchronized boolean watching() {
        return informer != null && informer.isWatching();
    }

    /** Only events about a node (the field selector does that on a real API server; this holds with any). */
    void onEvent(String watchType, Event event) {
        ObjectReference about = event.getInvolvedObject();
        if (about == null || !"Node".equals(about.getKind()) || about.getName() == null) {
            return;
        }
        JsonNode json = CloudEvents.MAPPER.valueToTree(client.getKubernetesSerialization().convertValue(event,
                JsonNode.class));
        publisher.publish(cluster, region, watchType, json, null, about.getName());
    }
}
