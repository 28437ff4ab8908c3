package io.jobmon.jobs.job.repository;

import io.jobmon.contracts.access.Visibility;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.i18n.Text;
import io.jobmon.jobs.job.model.AttemptCause;
import io.jobmon.jobs.job.model.JobRecord;
import io.jobmon.jobs.job.model.JobSpec;
import io.jobmon.jobs.job.model.Priority;
import io.jobmon.jobs.support.Json;
import io.jobmon.jobs.support.Times;
import io.vertx.mutiny.sqlclient.Row;
import java.util.Arrays;
import java.util.List;

/** Maps rows of {@code jobs.job} to {@link JobRecord}. */
final class JobRows {

    /** Every column but {@code spec}: what a list row needs. */
    static final String LIST_COLUMNS = "j.id, j.tenant, j.owner, j.project, j.name, j.cluster, j.region, j.namespace, "
            + "j.queue, j.priority, j.status, j.reason, j.message, j.message_text::text AS message_text, "
            + "j.failure_reason, j.failure_diagnosis_id, "
            + "j.exit_code, j.gpu_type, j.gpus_per_replica, j.replicas, j.visibility, j.tags, j.shares, "
            + "j.supports_restart, j.auto_fault_handling, j.max_retries, j.root_id, j.attempt, j.attempt_cause, "
            + "j.diagnosis_id, j.previous_id, j.cloned_from, j.retry_count, j.idempotency_key, j.submitted_at, "
            + "j.first_event_at, j.started_at, j.finished_at, j.last_sequence, j.version, j.updated_at";

    static final String ALL_COLUMNS = LIST_COLUMNS + ", j.spec::text AS spec";

    private JobRows() {
    }

    static JobRecord map(Row r) {
        String spec = r.getColumnIndex("spec") >= 0 ? r.getString("spec") : null;
        return new JobRecord(r.getString("id"), r.getString("tenant"), r.getString("owner"), r.getString("project"),
                r.getString("name"), r.getString("cluster"), r.getString("region"), r.getString("namespace"),
                r.getString("queue"), Priority.valueOf(r.getString("priority")),
                JobStatus.valueOf(r.getString("status")), r.getString("reason"), r.getString("message"),
                text(r.getString("message_text")),
                r.getString("failure_reason"), r.getString("failure_diagnosis_id"), r.getInteger("exit_code"),
                r.getString("gpu_type"), r.getInteger("gpus_per_replica"), r.getInteger("replicas"),
                Visibility.valueOf(r.getString("visibility")), strings(r.getArrayOfStrings("tags")),
                strings(r.getArrayOfStrings("shares")), spec == null ? null : Json.read(spec, JobSpec.class),
                r.getBoolean("supports_restart"), r.getBoolean("auto_fault_handling"), r.getInteger("max_retries"),
                r.getString("root_id"), r.getInteger("attempt"), AttemptCause.valueOf(r.getString("attempt_cause")),
                r.getString("diagnosis_id"), r.getString("previous_id"), r.getString("cloned_from"),
                r.getInteger("retry_count"), r.getString("idempotency_key"),
                Times.instant(r.getOffsetDateTime("submitted_at")), Times.instant(r.getOffsetDateTime("first_event_at")),
                Times.instant(r.getOffsetDateTime("started_at")), Times.instant(r.getOffsetDateTime("finished_at")),
                r.getLong("last_sequence"), r.getLong("version"), Times.instant(r.getOffsetDateTime("updated_at")));
    }

    /** A stored text ({@code message_text}, {@code detail_text}), or null. */
    static Text text(String json) {
        return json == null ? null : Json.read(json, Text.class);
    }

    /** A text to store, or null. */
    static String json(Text text) {
        return text == null ? null : Json.write(text);
    }

    static List<String> strings(String[] values) {
        return values == null ? List.of() : Arrays.asList(values);
    }
}
