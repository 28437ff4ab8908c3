package io.jobmon.sim.control;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The sim's controllers' view of the API and their writes to it, on the sim's thread. The view is fed by informers
 * and by the answers to the sim's own writes, newest resourceVersion first, so a controller sees what it just wrote
 * before its informer does (what client-go's "expectations" are for). Every change is handed to the listeners.
 */
public final class Kube {

    /** A change of the view: {@code ADDED}, {@code MODIFIED} or {@code DELETED}. */
    public record Change(String type, HasMetadata object) {

        public boolean deleted() {
            return "DELETED".equals(type);
        }
    }

    private final KubernetesClient client;
    private final Map<String, Pod> pods = new LinkedHashMap<>();
    private final Map<String, Job> jobs = new LinkedHashMap<>();
    private final Map<String, Node> nodes = new LinkedHashMap<>();
    private final Map<String, ResourceQuota> quotas = new LinkedHashMap<>();
    private final Map<String, PriorityClass> priorityClasses = new LinkedHashMap<>();
    private final List<Consumer<Change>> listeners = new ArrayList<>();

    public Kube(KubernetesClient client) {
        this.client = client;
    }

    public KubernetesClient client() {
        return client;
    }

    public KubernetesSerialization json() {
        return client.getKubernetesSerialization();
    }

    public void onChange(Consumer<Change> listener) {
        listeners.add(listener);
    }

    public static String key(HasMetadata o) {
        String ns = o.getMetadata().getNamespace();
        return ns == null || ns.isEmpty() ? o.getMetadata().getName() : ns + "/" + o.getMetadata().getName();
    }

    // ---- the view ----------------------------------------------------------------------------------------------

    /** An informer's (or a write's) report; older than what the view holds: ignored. */
    public void observed(String type, HasMetadata object) {
        Map<String, HasMetadata> store = storeOf(object);
        if (store == null) {
            return;
        }
        String key = key(object);
        HasMetadata held = store.get(key);
        boolean deleted = "DELETED".equals(type);
        if (held != null && version(held) > version(object)) {
            return;
        }
        if (held != null && !deleted && version(held) == version(object)) {
            return;
        }
        if (deleted) {
            if (store.remove(key) == null) {
                return;
            }
        } else {
            store.put(key, object);
        }
        Change change = new Change(held == null && !deleted ? "ADDED" : type, object);
        listeners.forEach(l -> l.accept(change));
    }

    @SuppressWarnings("unchecked")
    private Map<String, HasMetadata> storeOf(HasMetadata o) {
        if (o instanceof Pod) {
            return (Map<String, HasMetadata>) (Map<String, ?>) pods;
        } else if (o instanceof Job) {
            return (Map<String, HasMetadata>) (Map<String, ?>) jobs;
        } else if (o instanceof Node) {
            return (Map<String, HasMetadata>) (Map<String, ?>) nodes;
        } else if (o instanceof ResourceQuota) {
            return (Map<String, HasMetadata>) (Map<String, ?>) quotas;
        } else if (o instanceof PriorityClass) {
            return (Map<String, HasMetadata>) (Map<String, ?>) priorityClasses;
        }
        return null;
    }

    static long version(HasMetadata o) {
        try {
            return Long.parseLong(o.getMetadata().getResourceVersion());
        } catch (RuntimeException e) {
            return 0;
        }
    }

    public Optional<Pod> pod(String key) {
        return Optional.ofNullable(pods.get(key));
    }

    public Collection<Pod> pods() {
        return List.copyOf(pods.values());
    }

    /** The pods whose controlling owner has this uid. */
    public List<Pod> podsOwnedBy(String uid) {
        return pods.values().stream().filter(p -> uid.equals(ownerUid(p))).toList();
    }

    public static String ownerUid(Pod p) {
        return p.getMetadata().getOwnerReferences() == null ? null : p.getMetadata().getOwnerReferences().stream()
                .filter(r -> Boolean.TRUE.equals(r.getController())).map(r -> r.getUid()).findFirst().orElse(null);
    }

    public Optional<Job> job(String key) {
        return Optional.ofNullable(jobs.get(key));
    }

    public Collection<Job> jobs() {
        return List.copyOf(jobs.values());
    }

    public Optional<Node> node(String name) {
        return Optional.ofNullable(nodes.get(name));
    }

    public List<ResourceQuota> quotasIn(String namespace) {
        return quotas.values().stream().filter(q -> namespace.equals(q.getMetadata().getNamespace())).toList();
    }

    /** PriorityClass name → value. */
    public Map<String, Integer> priorityClasses() {
        Map<String, Integer> m = new LinkedHashMap<>();
        priorityClasses.values().forEach(p -> m.put(p.getMetadata().getName(), p.getValue()));
        return m;
    }

    // ---- writes ------------------------------------------------------------------------------------------------

    public <T extends HasMetadata> T create(T object) {
        T made = client.resource(object).create();
        observed("ADDED", made);
        return made;
    }

    /** Replaces the pod's status with what {@code change} makes of the newest copy; retried once on a conflict. */
    public Optional<Pod> updatePodStatus(String key, Consumer<Pod> change) {
        return replace(key, pods, change, p -> client.pods().resource(p).updateStatus(),
                k -> client.pods().inNamespace(ns(k)).withName(name(k)).get());
    }

    /** Replaces the Job's status with what {@code change} makes of the newest copy; retried once on a conflict. */
    public Optional<Job> updateJobStatus(String key, Consumer<Job> change) {
        return replace(key, jobs, change, j -> client.batch().v1().jobs().resource(j).updateStatus(),
                k -> client.batch().v1().jobs().inNamespace(ns(k)).withName(name(k)).get());
    }

    /** Replaces the Job (metadata, spec) with what {@code change} makes of the newest copy. */
    public Optional<Job> updateJob(String key, Consumer<Job> change) {
        return replace(key, jobs, change, j -> client.batch().v1().jobs().resource(j).update(),
                k -> client.batch().v1().jobs().inNamespace(ns(k)).withName(name(k)).get());
    }

    public Optional<Node> updateNodeStatus(String name, Consumer<Node> change) {
        return replace(name, nodes, change, n -> client.nodes().resource(n).updateStatus(),
                k -> client.nodes().withName(k).get());
    }

    public Optional<Node> updateNode(String name, Consumer<Node> change) {
        return replace(name, nodes, change, n -> client.nodes().resource(n).update(), k -> client.nodes().withName(k).get());
    }

    private <T extends HasMetadata> Optional<T> replace(String key, Map<String, T> store, Consumer<T> change,
            java.util.function.UnaryOperator<T> write, java.util.function.Function<String, T> fetch) {
        T current = store.get(key);
        for (int attempt = 0; attempt < 2; attempt++) {
            if (current == null) {
                return Optional.empty();
            }
            T copy = json().clone(current);
            change.accept(copy);
            try {
                T written = write.apply(copy);
                observed("MODIFIED", written);
                return Optional.of(written);
            } catch (KubernetesClientException e) {
                if (e.getCode() == 404) {
                    return Optional.empty();
                }
                if (e.getCode() != 409 || attempt == 1) {
                    throw e;
                }
                current = fetch.apply(key);
                if (current != null) {
                    observed("MODIFIED", current);
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Sets the pod's finalizers. A JSON patch, not a merge patch: the CRUD mock merges a merge patch's arrays into
     * the stored ones (Jackson's readerForUpdating appends), so a shorter list would never shrink the stored one.
     */
    public void setPodFinalizers(String key, List<String> finalizers) {
        jsonPatchPod(key, "[{\"op\":\"add\",\"path\":\"/metadata/finalizers\",\"value\":" + json().asJson(finalizers) + "}]");
    }

    /** Sets the pod's node (the scheduler's binding). */
    public void bind(String key, String node) {
        jsonPatchPod(key, "[{\"op\":\"add\",\"path\":\"/spec/nodeName\",\"value\":" + json().asJson(node) + "}]");
    }

    private void jsonPatchPod(String key, String jsonPatch) {
        try {
            Pod p = client.pods().inNamespace(ns(key)).withName(name(key)).patch(PatchContext.of(PatchType.JSON), jsonPatch);
            refresh(key, p);
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404) {
                throw e;
            }
        }
    }

    /** Deletes the pod gracefully (its finalizers keep it, marked, until they are gone). */
    public void deletePod(String key) {
        client.pods().inNamespace(ns(key)).withName(name(key)).delete();
        refresh(key, client.pods().inNamespace(ns(key)).withName(name(key)).get());
    }

    /** Sets the Job's finalizers (a JSON patch, see {@link #setPodFinalizers}). */
    public void setJobFinalizers(String key, List<String> finalizers) {
        try {
            Job j = client.batch().v1().jobs().inNamespace(ns(key)).withName(name(key)).patch(PatchContext.of(PatchType.JSON),
                    "[{\"op\":\"add\",\"path\":\"/metadata/finalizers\",\"value\":" + json().asJson(finalizers) + "}]");
            if (j != null && j.getMetadata() != null && j.getMetadata().getName() != null) {
                observed("MODIFIED", j);
            } else {
                gone(jobs, key);
            }
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404) {
                throw e;
            }
        }
    }

    private void refresh(String key, Pod now) {
        if (now != null && now.getMetadata() != null && now.getMetadata().getName() != null) {
            observed("MODIFIED", now);
        } else {
            gone(pods, key);
        }
    }

    /** The object is gone from the API (a write answered that it was removed). */
    private <T extends HasMetadata> void gone(Map<String, T> store, String key) {
        T old = store.remove(key);
        if (old != null) {
            listeners.forEach(l -> l.accept(new Change("DELETED", old)));
        }
    }

    static String ns(String key) {
        return key.substring(0, key.indexOf('/'));
    }

    static String name(String key) {
        return key.substring(key.indexOf('/') + 1);
    }
}
