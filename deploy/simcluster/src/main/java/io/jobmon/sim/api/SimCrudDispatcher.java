package io.jobmon.sim.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.regex.Pattern;

/**
 * fabric8's CRUD dispatcher with the watch semantics of a real API server, which the services' informers rely on:
 * <ul>
 * <li>A watch from a {@code resourceVersion} gets every change after it, deletions included, from a bounded history;
 * one from a version older than the history gets {@code 410 Gone} ("too old resource version"), and the informer
 * relists. (The plain mock ignores the version and sends every current object as {@code ADDED}: a deletion between
 * an informer's list and its watch is never reported.) A watch without a version, or from "0", starts with the
 * current objects as {@code ADDED}, as the real server does.</li>
 * <li>A {@code DELETED} event carries the deletion's own, new resourceVersion, as the real server's etcd watcher
 * does ({@code decodeObj(..., e.rev)}); the plain mock sends the object's last version, which a consumer that
 * keeps an object's newest version (event-ingest: {@code WHERE resource_version < EXCLUDED.resource_version})
 * drops as already seen.</li>
 * <li>Deleting a batch/v1 Job with {@code propagationPolicy: Foreground} marks it deleted and adds the
 * {@code foregroundDeletion} finalizer; the sim's garbage collector deletes its pods and then drops the finalizer
 * (the plain mock deletes the Job at once and never the pods).</li>
 * </ul>
 */
public final class SimCrudDispatcher extends KubernetesCrudDispatcher {

    /** Watch events kept for watches that resume from a resourceVersion (etcd compacts after ~5 minutes). */
    static final int HISTORY = 1024;
    static final String FOREGROUND = "foregroundDeletion";
    private static final Pattern JOB_PATH = Pattern.compile("^/apis/batch/v1/namespaces/[^/]+/jobs/[^/?]+.*");
    private static final Pattern CADVISOR_PATH = Pattern.compile("^/api/v1/nodes/([^/?]+)/proxy/metrics/cadvisor/?(\\?.*)?$");

    private record Change(long rv, AttributeSet oldAttributes, AttributeSet newAttributes, String oldJson,
            String newJson) {
    }

    private final KubernetesAttributesExtractor extractor = (KubernetesAttributesExtractor) attributeExtractor;
    private final Set<SimWatch> watches = new CopyOnWriteArraySet<>();
    private final ArrayDeque<Change> history = new ArrayDeque<>();
    /** The newest resourceVersion dropped from the history; a watch from before it is answered 410. */
    private long compactedThrough;
    private volatile KubeletProxy kubelets = node -> java.util.Optional.empty();

    void kubelets(KubeletProxy proxy) {
        kubelets = proxy;
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        var cadvisor = CADVISOR_PATH.matcher(request.getPath());
        if (request.method() == HttpMethod.GET && cadvisor.matches()) {
            return kubelets.cadvisor(URLDecoder.decode(cadvisor.group(1), StandardCharsets.UTF_8));
        }
        if (request.method() == HttpMethod.DELETE && JOB_PATH.matcher(request.getPath()).matches()
                && "Foreground".equals(propagationPolicy(request))) {
            return markForegroundDeletion(request.getPath());
        }
        return super.dispatch(request);
    }

    @Override
    public void processEvent(String path, AttributeSet pathAttributes, AttributeSet oldAttributes,
            GenericKubernetesResource resource, String newState) {
        // Called with the store's write lock held, for every create, update, patch and delete.
        String existing = oldAttributes == null ? null : map.get(oldAttributes);
        super.processEvent(path, pathAttributes, oldAttributes, resource, newState);
        if (java.util.Objects.equals(existing, newState)) {
            return;
        }
        AttributeSet newAttributes = null;
        if (newState != null) {
            newAttributes = resource != null ? extractor.extract(resource) : extractor.fromResource(newState);
            if (!newAttributes.containsKey(KubernetesAttributesExtractor.PLURAL)) {
                newAttributes = AttributeSet.merge(pathAttributes, newAttributes);
            }
        }
        long rv;
        String oldJson = existing;
        if (newState == null) {
            rv = requestResourceVersion();
            oldJson = withResourceVersion(existing, rv);
        } else {
            rv = resourceVersionOf(newState);
        }
        Change change = new Change(rv, oldAttributes, newAttributes, oldJson, newState);
        synchronized (history) {
            history.addLast(change);
            while (history.size() > HISTORY) {
                compactedThrough = history.removeFirst().rv();
            }
            watches.forEach(w -> deliver(w, change));
        }
    }

    @Override
    public MockResponse handleWatch(String path) {
        // Path, namespace, labelSelector and fieldSelector (metadata.name/namespace only) as the mock parses them.
        AttributeSet selector = attributeExtractor.fromPath(path);
        String from = queryParameter(path, "resourceVersion");
        SimWatch watch = new SimWatch(selector, w -> open(w, from), watches::remove);
        return new MockResponse().withWebSocketUpgrade(watch);
    }

    /** Sends what the watch missed (or the current objects), then registers it for what follows. */
    private void open(SimWatch watch, String from) {
        synchronized (history) {
            long since = parseVersion(from);
            if (since <= 0) {
                List<String> current;
                synchronized (map) {
                    current = new ArrayList<>();
                    for (Map.Entry<AttributeSet, String> e : map.entrySet()) {
                        if (watch.sees(e.getKey())) {
                            current.add(e.getValue());
                        }
                    }
                }
                current.forEach(json -> watch.send("ADDED", json));
            } else if (since < compactedThrough) {
                watch.send("ERROR", "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                        + "\"message\":\"too old resource version: " + since + " (" + compactedThrough + ")\","
                        + "\"reason\":\"Expired\",\"code\":410}");
                return;
            } else {
                for (Change c : history) {
                    if (c.rv() > since) {
                        deliver(watch, c);
                    }
                }
            }
            watches.add(watch);
        }
    }

    private static void deliver(SimWatch watch, Change c) {
        boolean before = watch.sees(c.oldAttributes());
        boolean after = watch.sees(c.newAttributes());
        if (before && after) {
            watch.send("MODIFIED", c.newJson());
        } else if (before) {
            watch.send("DELETED", c.newJson() != null ? c.newJson() : c.oldJson());
        } else if (after) {
            watch.send("ADDED", c.newJson());
        }
    }

    private MockResponse markForegroundDeletion(String path) {
        String plain = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
        MockResponse current = handleGet(plain);
        if (current.code() != 200) {
            return current;
        }
        JsonNode job = Serialization.unmarshal(current.getBody().readUtf8(), JsonNode.class);
        if (job.path("metadata").hasNonNull("deletionTimestamp")) {
            return new MockResponse().setResponseCode(200).setBody(job.toString());
        }
        // A JSON patch: the mock appends a merge patch's arrays to the stored ones.
        ArrayNode finalizers = Serialization.jsonMapper().createArrayNode();
        job.path("metadata").path("finalizers").forEach(finalizers::add);
        finalizers.add(FOREGROUND);
        ArrayNode patch = Serialization.jsonMapper().createArrayNode();
        patch.addObject().put("op", "add").put("path", "/metadata/deletionTimestamp")
                .put("value", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        patch.addObject().put("op", "add").put("path", "/metadata/finalizers").set("value", finalizers);
        RecordedRequest request = new RecordedRequest("HTTP/1.1", HttpMethod.PATCH, plain,
                Headers.builder().add("Content-Type", "application/json-patch+json").build(),
                new Buffer(patch.toString().getBytes(StandardCharsets.UTF_8)));
        MockResponse patched = handlePatch(request);
        return new MockResponse().setResponseCode(200).setBody(patched.getBody());
    }

    private static String propagationPolicy(RecordedRequest request) {
        String fromQuery = queryParameter(request.getPath(), "propagationPolicy");
        if (fromQuery != null) {
            return fromQuery;
        }
        String body = request.getBody() == null ? "" : request.getUtf8Body();
        if (body == null || body.isBlank()) {
            return null;
        }
        return Serialization.unmarshal(body, JsonNode.class).path("propagationPolicy").asText(null);
    }

    static String queryParameter(String path, String name) {
        String query = URI.create(path.replace(" ", "%20")).getRawQuery();
        if (query == null) {
            return null;
        }
        for (String part : query.split("&")) {
            int eq = part.indexOf('=');
            String key = URLDecoder.decode(eq < 0 ? part : part.substring(0, eq), StandardCharsets.UTF_8);
            if (key.equals(name)) {
                return eq < 0 ? "" : URLDecoder.decode(part.substring(eq + 1), StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    private static long parseVersion(String rv) {
        try {
            return rv == null || rv.isEmpty() ? 0 : Long.parseLong(rv);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static long resourceVersionOf(String json) {
        return parseVersion(Serialization.unmarshal(json, JsonNode.class).path("metadata").path("resourceVersion")
                .asText(null));
    }

    private static String withResourceVersion(String json, long rv) {
        ObjectNode node = (ObjectNode) Serialization.unmarshal(json, JsonNode.class);
        ((ObjectNode) node.path("metadata")).put("resourceVersion", String.valueOf(rv));
        return node.toString();
    }
}
