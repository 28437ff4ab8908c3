package io.jobmon.metrics.alerts;

import io.jobmon.contracts.access.Caller;
import io.jobmon.contracts.i18n.Text;
import io.jobmon.contracts.problem.ApiException;
import io.jobmon.contracts.problem.Problem;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Silences of a tenant's admins (ADR 0034): every silence jobmon creates carries the exact matcher
 * {@code tenant="<the admin's tenant>"}, so it never hides another tenant's alerts; a silence without it (made in
 * Alertmanager by the platform's operators) is nobody's in the API: not listed, not expired (404).
 */
@ApplicationScoped
public class SilenceService {

    static final int MAX_MATCHERS = 20;
    static final int MAX_TEXT = 1000;
    private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]{0,127}");
    private static final Pattern SHORT_DURATION = Pattern.compile("([1-9][0-9]{0,5})(m|h|d)");
    private static final Pattern SILENCE_ID = Pattern.compile("[0-9a-fA-F-]{1,64}");

    private final AlertmanagerClient alertmanager;
    private final AlertsConfig config;

    public SilenceService(AlertmanagerClient alertmanager, AlertsConfig config) {
        this.alertmanager = alertmanager;
        this.config = config;
    }

    /** The tenant's silences, active and pending first, then the newest. */
    public Uni<List<AlertSilence>> list(Caller caller) {
        return alertmanager.silences(AlertmanagerClient.equal("tenant", caller.tenant()))
                .map(all -> all.stream().filter(s -> caller.tenant().equals(s.tenant()))
                        .sorted(Comparator.comparing((AlertSilence s) -> "expired".equals(s.state()))
                                .thenComparing(AlertSilence::startsAt, Comparator.reverseOrder()))
                        .toList());
    }

    /** Validates (400 naming every bad field), confines to the caller's tenant and creates the silence. */
    public Uni<AlertSilence> create(Caller caller, SilenceRequest body, Instant now) {
        List<Problem.FieldError> errors = new ArrayList<>();
        List<AlertSilence.SilenceMatcher> matchers = matchers(body, errors);
        Instant starts = body == null || body.startsAt() == null ? now : body.startsAt();
        Instant ends = ends(body, starts, errors);
        if (ends != null && !ends.isAfter(now)) {
            errors.add(Problem.FieldError.of(body.endsAt() != null ? "endsAt" : "duration", "field.after", now));
        }
        if (ends != null && ends.isAfter(starts) && Duration.between(starts, ends).compareTo(config.maxSilence()) > 0) {
            errors.add(Problem.FieldError.of(body.endsAt() != null ? "endsAt" : "duration", "alerts.silence-span",
                    config.maxSilence().toDays()));
        }
        String comment = body == null ? null : body.comment();
        if (comment == null || comment.isBlank()) {
            errors.add(Problem.FieldError.of("comment", "field.required"));
        } else if (comment.length() > MAX_TEXT) {
            errors.add(Problem.FieldError.of("comment", "field.max-length", MAX_TEXT));
        }
        if (!errors.isEmpty()) {
            throw ApiException.badRequest(errors);
        }
        matchers.add(new AlertSilence.SilenceMatcher("tenant", caller.tenant(), false, true));
        Instant start = starts.isBefore(now) ? now : starts;
        return alertmanager.create(matchers, start, ends, caller.user(), comment)
                .map(id -> new AlertSilence(id, List.copyOf(matchers), start, ends, comment, caller.user(),
                        start.isAfter(now) ? "pending" : "active"));
    }

    /** The caller tenant's silence; 404 when it is unknown or not the tenant's. */
    public Uni<AlertSilence> get(Caller caller, String id) {
        if (id == null || !SILENCE_ID.matcher(id).matches()) {
            return Uni.createFrom().failure(notFound(id));
        }
        return alertmanager.silence(id).map(found -> found.filter(s -> caller.tenant().equals(s.tenant()))
                .orElseThrow(() -> notFound(id)));
    }

    /** Expires the caller tenant's silence; 404 when it is unknown or not the tenant's. */
    public Uni<Void> expire(Caller caller, String id) {
        return get(caller, id).chain(s -> alertmanager.expire(id));
    }

    private static ApiException notFound(String id) {
        return ApiException.notFound(Text.of("alerts.silence-not-found", id));
    }

    private static List<AlertSilence.SilenceMatcher> matchers(SilenceRequest body, List<Problem.FieldError> errors) {
        List<AlertSilence.SilenceMatcher> out = new ArrayList<>();
        if (body == null || body.matchers() == null || body.matchers().isEmpty()) {
            errors.add(Problem.FieldError.of("matchers", "field.required"));
            return out;
        }
        if (body.matchers().size() > MAX_MATCHERS) {
            errors.add(Problem.FieldError.of("matchers", "field.max-items", MAX_MATCHERS));
            return out;
        }
        for (int i = 0; i < body.matchers().size(); i++) {
            SilenceRequest.Matcher m = body.matchers().get(i);
            String at = "matchers[" + i + "]";
            if (m == null || m.name() == null || !LABEL_NAME.matcher(m.name()).matches()) {
                errors.add(Problem.FieldError.of(at + ".name", "alerts.label-name"));
                continue;
            }
            if (m.name().equals("tenant")) {
                errors.add(Problem.FieldError.of(at + ".name", "alerts.tenant-matcher"));
                continue;
            }
            if (m.value() == null) {
                errors.add(Problem.FieldError.of(at + ".value", "field.required"));
                continue;
            }
            if (m.value().length() > MAX_TEXT || m.value().indexOf('\0') >= 0) {
                errors.add(Problem.FieldError.of(at + ".value", "field.max-length", MAX_TEXT));
                continue;
            }
            boolean regex = Boolean.TRUE.equals(m.isRegex());
            if (regex) {
                try {
                    Pattern.compile(m.value());
                } catch (PatternSyntaxException e) {
                    errors.add(Problem.FieldError.of(at + ".value", "alerts.regex"));
                    continue;
                }
            }
            out.add(new AlertSilence.SilenceMatcher(m.name(), m.value(), regex, !Boolean.FALSE.equals(m.isEqual())));
        }
        return out;
    }

    private static Instant ends(SilenceRequest body, Instant starts, List<Problem.FieldError> errors) {
        if (body == null) {
            return null;
        }
        if (body.endsAt() != null && body.duration() != null) {
            errors.add(Problem.FieldError.of("duration", "alerts.ends-or-duration"));
            return null;
        }
        if (body.endsAt() != null) {
            if (!body.endsAt().isAfter(starts)) {
                errors.add(Problem.FieldError.of("endsAt", "field.after", starts));
                return null;
            }
            return body.endsAt();
        }
        if (body.duration() == null) {
            errors.add(Problem.FieldError.of("endsAt", "alerts.ends-or-duration"));
            return null;
        }
        Duration d = duration(body.duration());
        if (d == null || d.isNegative() || d.isZero() || d.toDays() > 36_500) {
            errors.add(Problem.FieldError.of("duration", "alerts.duration"));
            return null;
        }
        try {
            return starts.plus(d);
        } catch (java.time.DateTimeException | ArithmeticException e) {
            errors.add(Problem.FieldError.of("startsAt", "field.time"));
            return null;
        }
    }

    /** {@code 30m}, {@code 2h}, {@code 1d} or ISO 8601; null when it is neither. */
    static Duration duration(String raw) {
        var m = SHORT_DURATION.matcher(raw.trim());
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            return switch (m.group(2)) {
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofDays(n);
            };
        }
        try {
            return raw.length() > 40 ? null : Duration.parse(raw.trim().toUpperCase(Locale.ROOT));
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
