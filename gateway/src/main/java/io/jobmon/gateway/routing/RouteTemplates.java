package io.jobmon.gateway.routing;

import io.jobmon.contracts.http.RouteTags;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The route templates of the public API (api.md), the {@code uri} tag of a proxied request's metrics: a path the
 * gateway forwards is tagged with its template ({@code /api/v1/jobs/{id}/logs/stream}), one no template matches with
 * {@link RouteTags#UNMATCHED}; a job id never becomes a tag. Literal paths come before the templates they would match
 * ({@code /api/v1/jobs/stats} before {@code /api/v1/jobs/{id}}).
 */
public final class RouteTemplates {

    static final List<String> TEMPLATES = List.of(
            "/api/v1/jobs", "/api/v1/jobs/stats", "/api/v1/jobs/statuses", "/api/v1/jobs/batch-delete",
            "/api/v1/jobs/{id}",
            "/api/v1/jobs/{id}/attempts", "/api/v1/jobs/{id}/clone", "/api/v1/jobs/{id}/pods",
            "/api/v1/jobs/{id}/resubmit", "/api/v1/jobs/{id}/shares", "/api/v1/jobs/{id}/stop", "/api/v1/jobs/{id}/tags",
            "/api/v1/jobs/{id}/timeline", "/api/v1/jobs/{id}/visibility",
            "/api/v1/jobs/{id}/events",
            "/api/v1/jobs/{id}/logs", "/api/v1/jobs/{id}/logs/count", "/api/v1/jobs/{id}/logs/download",
            "/api/v1/jobs/{id}/logs/pods", "/api/v1/jobs/{id}/logs/stream",
            "/api/v1/jobs/{id}/logs/stream-tickets",
            "/api/v1/jobs/{id}/metrics", "/api/v1/jobs/{id}/metrics/summary", "/api/v1/jobs/{id}/gpus",
            "/api/v1/nodes/{node}/logs",
            "/api/v1/nodes/{node}/metrics", "/api/v1/metrics/catalogue", "/api/v1/metrics/overview",
            "/api/v1/metrics/targets", "/api/v1/write",
            "/api/v1/jobs/{id}/alerts", "/api/v1/alerts", "/api/v1/alerts/silences", "/api/v1/alerts/silences/{id}",
            "/api/v1/jobs/{id}/diagnoses", "/api/v1/diagnoses/analyze", "/api/v1/diagnoses/{id}",
            "/api/v1/diagnoses/{id}/feedback",
            "/api/v1/diagnoses/{id}/snapshot",
            "/api/v1/clusters", "/api/v1/queues", "/api/v1/projects", "/api/v1/tags", "/api/v1/users");

    private record Template(Pattern path, String template) {
    }

    private static final List<Template> COMPILED = TEMPLATES.stream()
            .map(t -> new Template(Pattern.compile(t.replaceAll("\\{[a-z]+}", "[^/]+")), t)).toList();

    private RouteTemplates() {
    }

    /** The template of {@code path}, or {@link RouteTags#UNMATCHED}. */
    public static String of(String path) {
        String p = path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        for (Template t : COMPILED) {
            if (t.path().matcher(p).matches()) {
                return t.template();
            }
        }
        return RouteTags.UNMATCHED;
    }
}
