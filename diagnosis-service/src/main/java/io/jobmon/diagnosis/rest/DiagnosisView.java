package io.jobmon.diagnosis.rest;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.core.JsonProcessingException;
import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.diagnosis.engine.BilingualDiagnosis;
import io.jobmon.diagnosis.task.DiagnosisTask;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A diagnosis as the API shows it: the task and, once {@code DONE}, the result in the contract's form.
 *
 * @param trigger USER, JOB_FAILED (automatic when the job failed) or PERIODIC (automatic fault handling)
 * @param missingSources evidence sections no source could give (job, pods, events, logs, metrics)
 * @param sourceErrors why each of them was missing ({@code logs.partial}, {@code metrics.partial}: reads left out of a
 *        section that was gathered)
 * @param error why the task FAILED
 * @param evidenceRead what the diagnosis read of each source: log lines per read, events and pages, pods, metric
 *        series and points
 * @param myFeedback the caller's verdict on it, absent when they gave none (on a list: always absent)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(requiredProperties = {"id", "jobId", "status", "trigger", "window", "createdAt"})
public record DiagnosisView(String id, String jobId,
        @Schema(enumeration = {"PENDING", "RUNNING", "DONE", "FAILED"}) String status,
        @Schema(enumeration = {"USER", "JOB_FAILED", "PERIODIC"}) String trigger, String requestedBy,
        WindowView window, List<String> metrics, String hint, Instant createdAt, Instant startedAt,
        Instant finishedAt, @Schema(ref = "Diagnosis") JsonNode result, List<String> missingSources,
        Map<String, String> sourceErrors, String error,
        @Schema(ref = "DiagnosisEvidenceRead") JsonNode evidenceRead, FeedbackView myFeedback) {

    /** The evidence window. */
    @Schema(name = "DiagnosisWindow", requiredProperties = {"from", "to"})
    public record WindowView(Instant from, Instant to) {
    }

    /** The task, its result in the reader's language ({@code zh}: Chinese; otherwise English). */
    public static DiagnosisView of(DiagnosisTask t, Locale locale) {
        return of(t, locale, null);
    }

    /** The same with the caller's verdict. */
    public static DiagnosisView of(DiagnosisTask t, Locale locale, FeedbackView myFeedback) {
        return new DiagnosisView(t.id(), t.jobId(), t.status().name(), t.trigger().name(), t.requestedBy(),
                new WindowView(t.windowFrom(), t.windowTo()), t.metrics(), t.hint(), t.createdAt(), t.startedAt(),
                t.finishedAt(), render(t.result(), locale), t.missingSources(),
                t.sourceErrors().isEmpty() ? null : t.sourceErrors(), t.error(), t.evidenceRead(), myFeedback);
    }

    /**
     * A stored result is the engine's {@link BilingualDiagnosis} (summary, suggestion and evidence texts in both
     * languages); results stored before that are the contract's diagnosis in one language, shown as they are.
     */
    static JsonNode render(JsonNode stored, Locale locale) {
        if (stored == null || !stored.path("summary").isObject()) {
            return stored;
        }
        try {
            BilingualDiagnosis both = CloudEvents.MAPPER.treeToValue(stored, BilingualDiagnosis.class);
            return CloudEvents.MAPPER.valueToTree(both.in(locale));
        } catch (JsonProcessingException | IllegalArgumentException e) {
            return stored;
        }
    }
}
