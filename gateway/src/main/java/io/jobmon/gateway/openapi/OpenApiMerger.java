package io.jobmon.gateway.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Merges the OpenAPI 3.1 documents of the services into the one the frontend builds on: every path, every component
 * (schemas, responses, parameters, headers, security schemes), the tags. The services describe their shared parts
 * the same way (contracts' ApiConventions: Problem, FieldError, the bearer scheme), so a component two documents
 * define is taken from the first; one that differs is named under {@code x-jobmon-conflicts}, never silently
 * replaced. Pure: the resource fetches, this combines.
 */
public final class OpenApiMerger {

    private static final JsonNodeFactory N = JsonNodeFactory.instance;
    private static final String[] COMPONENTS = {"schemas", "responses", "parameters", "examples", "requestBodies",
            "headers", "securitySchemes", "links", "callbacks", "pathItems"};

    private final ObjectNode doc = N.objectNode();
    private final ObjectNode paths;
    private final ObjectNode components;
    private final Map<String, JsonNode> tags = new TreeMap<>();
    private final Set<String> conflicts = new LinkedHashSet<>();
    private final ArrayNode missing;

    public OpenApiMerger(String title, String version, String description) {
        doc.put("openapi", "3.1.0");
        doc.putObject("info").put("title", title).put("version", version).put("description", description);
        doc.putArray("servers").addObject().put("url", "/").put("description", "the gateway");
        paths = doc.putObject("paths");
        components = doc.putObject("components");
        missing = N.arrayNode();
    }

    /** Adds a service's document; {@code service} names it in a conflict. */
    public OpenApiMerger add(String service, JsonNode part) {
        copyInto(service, "paths", part.path("paths"), paths);
        for (String kind : COMPONENTS) {
            JsonNode from = part.path("components").path(kind);
            if (from.isObject() && !from.isEmpty()) {
                copyInto(service, kind, from, components.has(kind) ? (ObjectNode) components.get(kind)
                        : components.putObject(kind));
            }
        }
        part.path("tags").forEach(t -> tags.putIfAbsent(t.path("name").asText(), t));
        return this;
    }

    /** A service whose document could not be had. */
    public OpenApiMerger missing(String service) {
        missing.add(service);
        return this;
    }

    public ObjectNode result() {
        if (!tags.isEmpty()) {
            ArrayNode t = doc.putArray("tags");
            tags.values().forEach(t::add);
        }
        if (components.isEmpty()) {
            doc.remove("components");
        }
        doc.set("security", N.arrayNode().add(N.objectNode().set("bearer", N.arrayNode())));
        doc.set("x-jobmon-missing", missing);
        if (!conflicts.isEmpty()) {
            ArrayNode c = doc.putArray("x-jobmon-conflicts");
            conflicts.forEach(c::add);
        }
        return doc;
    }

    private void copyInto(String service, String kind, JsonNode from, ObjectNode to) {
        for (Iterator<Map.Entry<String, JsonNode>> it = from.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode known = to.get(e.getKey());
            if (known == null) {
                to.set(e.getKey(), e.getValue());
            } else if (!known.equals(e.getValue())) {
                conflicts.add(kind + "/" + e.getKey() + " (" + service + ")");
            }
        }
    }
}
