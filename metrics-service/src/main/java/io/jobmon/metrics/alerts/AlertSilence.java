package io.jobmon.metrics.alerts;

import java.time.Instant;
import java.util.List;

/**
 * A silence of Alertmanager: it hides the alerts its matchers all match between {@code startsAt} and {@code endsAt}.
 *
 * @param state {@code pending}, {@code active} or {@code expired}
 */
public record AlertSilence(String id, List<SilenceMatcher> matchers, Instant startsAt, Instant endsAt, String comment,
        String createdBy, String state) {

    /** One label matcher: {@code name="value"} ({@code isEqual}), {@code !=}, {@code =~} or {@code !~} ({@code isRegex}). */
    public record SilenceMatcher(String name, String value, boolean isRegex, boolean isEqual) {
    }

    /** The tenant the silence is confined to: its exact matcher {@code tenant="<t>"}, else null (not jobmon's). */
    public String tenant() {
        return matchers == null ? null : matchers.stream()
                .filter(m -> m.name().equals("tenant") && m.isEqual() && !m.isRegex())
                .map(SilenceMatcher::value).findFirst().orElse(null);
    }
}
