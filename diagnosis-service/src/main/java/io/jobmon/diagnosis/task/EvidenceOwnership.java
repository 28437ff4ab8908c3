package io.jobmon.diagnosis.task;

import com.fasterxml.jackson.databind.JsonNode;
import io.jobmon.diagnosis.engine.Diagnosis;
import io.jobmon.diagnosis.engine.Evidence;
import java.util.Set;

/**
 * Whether the evidence that decided a diagnosis is the job's own — its pods' states, its own events and lines, its
 * attributed series — or a node-wide fault it suffers, before automatic fault handling may act on it (issue #24).
 * The one kind of evidence that may belong to a neighbour on a shared node is a system line of the node (kernel,
 * kubelet, containerd, device plugin): log-service shows a job only the system lines it attributes to it, each with
 * {@code attribution.reason} {@code pod}, {@code gpu} or {@code node}; a quoted system line without one is not
 * shown to be the job's, and the diagnosis must not stop or restart the job.
 */
public final class EvidenceOwnership {

    static final Set<String> REASONS = Set.of("pod", "gpu", "node");

    private EvidenceOwnership() {
    }

    /**
     * Null when every quoted log line is the job's own or node-wide; else which line is not, and why. Log evidence
     * that quotes no line of the bundle is the engine's own description of the job's lines (no progress for 25 min).
     */
    public static String foreign(Diagnosis d, JsonNode bundle) {
        JsonNode logs = bundle == null ? null : bundle.path("logs");
        for (Evidence e : d.evidence()) {
            if (!Evidence.LOG.equals(e.source()) || e.text().isBlank()) {
                continue;
            }
            JsonNode line = quoted(logs, e.text());
            if (line == null || !"system".equals(line.path("stream").asText())) {
                // the job's own containers' lines, or what the engine wrote of them (a silence, a speed)
                continue;
            }
            String reason = line.path("attribution").path("reason").asText("");
            if (!REASONS.contains(reason)) {
                return "a system line of the node is not attributed to the job: " + abbreviate(e.text());
            }
        }
        return null;
    }

    /** The bundle's line an evidence text quotes (the whole line, or a part of it; a clipped quote ends in …). */
    private static JsonNode quoted(JsonNode logs, String quote) {
        if (logs == null || !logs.isArray()) {
            return null;
        }
        String text = (quote.endsWith("…") ? quote.substring(0, quote.length() - 1) : quote).strip();
        JsonNode part = null;
        for (JsonNode l : logs) {
            String line = l.path("line").asText("");
            if (line.equals(text)) {
                return l;
            }
            if (part == null && line.contains(text)) {
                part = l;
            }
        }
        return part;
    }

    private static String abbreviate(String s) {
        return s.length() <= 160 ? s : s.substring(0, 157) + "...";
    }
}
