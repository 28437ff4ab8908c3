package io.jobmon.metrics.alerts;

import io.jobmon.contracts.api.Limits;
import io.jobmon.contracts.api.Page;
import io.jobmon.contracts.i18n.Locales;
import io.jobmon.contracts.i18n.Texts;
import io.jobmon.contracts.problem.ApiException;
import io.jobmon.contracts.problem.Problem;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How the alert lists read their parameters and render an alert: its texts in the reader's language — the rule's
 * English annotations for {@code en}, this service's catalogue ({@code alert.summary.<alertname>},
 * {@code alert.description.<alertname>}) for {@code zh-CN}, each falling back to the other.
 */
final class AlertViews {

    /** An alert as the API shows it. */
    @org.eclipse.microprofile.openapi.annotations.media.Schema(requiredProperties = {"id", "alertname", "state", "since"})
    record AlertView(String id, String alertname, String state, String severity, String jobId, String node, String gpu,
            Instant since, Instant endsAt, String summary, String description, List<String> silencedBy) {
    }

    /** The labels a text's placeholders {0}..{12} stand for (messages.properties). */
    static final List<String> ARGS = List.of("job_id", "owner", "node", "gpu", "cluster", "queue", "job", "namespace",
            "pod", "topic", "channel", "target", "mountpoint");
    static final Duration DEFAULT_SINCE = Duration.ofHours(24);

    private AlertViews() {
    }

    static AlertsService.Query query(String state, String since, String limit, String cursor, int retentionDays,
            Instant now) {
        List<Problem.FieldError> errors = new ArrayList<>();
        AlertsService.Which which = AlertsService.Which.ALL;
        if (state != null && !state.isBlank()) {
            try {
                which = AlertsService.Which.valueOf(state.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                errors.add(Problem.FieldError.of("state", "field.one-of", "firing, resolved, all"));
            }
        }
        Instant from = now.minus(DEFAULT_SINCE);
        if (since != null && !since.isBlank()) {
            try {
                from = OffsetDateTime.parse(since.trim()).toInstant();
                if (from.isBefore(now.minus(Duration.ofDays(retentionDays)))) {
                    errors.add(Problem.FieldError.of("since", "alerts.since", retentionDays));
                }
            } catch (DateTimeParseException e) {
                errors.add(Problem.FieldError.of("since", "field.time"));
            }
        }
        int n = Limits.parse(limit, errors);
        AlertHistoryRepository.After after = null;
        try {
            after = AlertsService.after(cursor);
        } catch (ApiException e) {
            errors.addAll(e.errors());
        }
        if (!errors.isEmpty()) {
            throw ApiException.badRequest(errors);
        }
        return new AlertsService.Query(which, from, n, after);
    }

    static Page<AlertView> render(Page<Alert> page, Texts t) {
        return new Page<>(page.items().stream().map(a -> view(a, t)).toList(), page.nextCursor());
    }

    static AlertView view(Alert a, Texts t) {
        return new AlertView(a.id(), a.alertname(), a.state().name().toLowerCase(Locale.ROOT), a.label("severity"),
                a.jobId(), a.label("node"), a.label("gpu"), a.since(), a.endsAt(),
                text(a, "summary", t), text(a, "description", t), a.silencedBy());
    }

    /** The annotation in English; the catalogue's text in Chinese; either when the other is missing. */
    static String text(Alert a, String kind, Texts t) {
        String annotation = a.annotations().get(kind);
        String code = "alert." + kind + "." + a.alertname();
        boolean chinese = Locales.ZH_CN.getLanguage().equals(t.locale().getLanguage());
        boolean catalogued = !t.text(code).equals(code);
        if ((chinese || annotation == null || annotation.isBlank()) && catalogued) {
            return t.text(code, ARGS.stream().map(l -> a.labels().getOrDefault(l, "-")).toList());
        }
        return annotation == null || annotation.isBlank() ? null : annotation;
    }
}
