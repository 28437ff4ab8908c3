package io.jobmon.metrics.alerts;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * An alert as Alertmanager or the webhook's history knows it: its labels and annotations as the rules wrote them.
 *
 * @param id Alertmanager's fingerprint (a hash of the labels; the same alert firing again keeps it)
 * @param since when it started firing ({@code startsAt})
 * @param endsAt when it was resolved; null while it fires
 * @param silencedBy the silences that hide it
 */
public record Alert(String id, State state, Map<String, String> labels, Map<String, String> annotations, Instant since,
        Instant endsAt, List<String> silencedBy) {

    /** Alertmanager's {@code active} is firing, {@code suppressed} silenced or inhibited; the history's resolved. */
    public enum State {
        FIRING, SILENCED, INHIBITED, RESOLVED
    }

    public Alert {
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
        silencedBy = silencedBy == null ? List.of() : List.copyOf(silencedBy);
    }

    public String alertname() {
        return labels.getOrDefault("alertname", "");
    }

    /** The job it is about ({@code job_id} label of the job rules); null for node and platform alerts. */
    public String jobId() {
        return blankToNull(labels.get("job_id"));
    }

    /** The {@code tenant} label; null when the rule puts none (node, GPU and platform alerts). */
    public String tenant() {
        return blankToNull(labels.get("tenant"));
    }

    public String label(String name) {
        return blankToNull(labels.get(name));
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
