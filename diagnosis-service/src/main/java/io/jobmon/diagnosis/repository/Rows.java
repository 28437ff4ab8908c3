package io.jobmon.diagnosis.repository;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.diagnosis.task.DiagnosisTask;
import io.vertx.mutiny.sqlclient.Row;
import java.io.IOException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Row ↔ Java conversions shared by the repositories. */
final class Rows {

    /** The diagnosis columns every query selects; JSON columns come back as text. */
    static final String DIAGNOSIS_COLUMNS = "id, job_id, trigger, status, requested_by, window_from, window_to, metrics, "
            + "hint, locale, seed::text AS seed, created_at, started_at, finished_at, attempts, category, action, "
            + "confidence, result::text AS result, missing_sources, source_errors::text AS source_errors, error, "
            + "evidence_read::text AS evidence_read, foreign_evidence";

    private Rows() {
    }

    static DiagnosisTask task(Row r) {
        return new DiagnosisTask(r.getString("id"), r.getString("job_id"),
                DiagnosisTask.Trigger.valueOf(r.getString("trigger")), DiagnosisTask.Status.valueOf(r.getString("status")),
                r.getString("requested_by"), instant(r, "window_from"), instant(r, "window_to"),
                strings(r.getArrayOfStrings("metrics")), r.getString("hint"), r.getString("locale"),
                json(r.getString("seed")), instant(r, "created_at"), instant(r, "started_at"),
                instant(r, "finished_at"), r.getInteger("attempts"), r.getString("category"), r.getString("action"),
                r.getDouble("confidence"), json(r.getString("result")), strings(r.getArrayOfStrings("missing_sources")),
                map(r.getString("source_errors")), r.getString("error"), json(r.getString("evidence_read")),
                r.getString("foreign_evidence"));
    }

    static Instant instant(Row r, String column) {
        OffsetDateTime t = r.getOffsetDateTime(column);
        return t == null ? null : t.toInstant();
    }

    static OffsetDateTime utc(Instant t) {
        return t == null ? null : t.atOffset(ZoneOffset.UTC);
    }

    static List<String> strings(String[] values) {
        return values == null ? List.of() : Arrays.asList(values);
    }

    static String[] array(List<String> values) {
        return values == null ? new String[0] : values.toArray(String[]::new);
    }

    static String text(Object value) {
        return value == null ? null : CloudEvents.toJson(value);
    }

    static JsonNode json(String text) {
        if (text == null) {
            return null;
        }
        try {
            return CloudEvents.MAPPER.readTree(text);
        } catch (IOException e) {
            throw new IllegalStateException("unreadable JSON column", e);
        }
    }

    private static Map<String, String> map(String text) {
        if (text == null) {
            return Map.of();
        }
        try {
            return CloudEvents.MAPPER.readValue(text, new TypeReference<Map<String, String>>() { });
        } catch (IOException e) {
            throw new IllegalStateException("unreadable JSON column", e);
        }
    }
}
