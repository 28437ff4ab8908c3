package io.jobmon.jobs.job.model;

import io.jobmon.contracts.events.JobStatus;
import java.time.Instant;
import java.util.List;

/**
 * A validated job list request.
 *
 * @param scope whose jobs: the caller's, shared with the caller, PROJECT-visible in the caller's groups, or the
 *        whole tenant (admins)
 * @param cursor the position after which this page starts, or null for the first page
 */
public record ListQuery(Scope scope, String name, List<JobStatus> statuses, List<String> tags, String project,
        String cluster, String region, String owner, Instant submittedFrom, Instant submittedTo, Sort sort,
        int limit, Cursor cursor) {

    public enum Scope {
        mine, shared, project, all
    }

    /**
     * Sortable fields; {@code key} is the API spelling. {@code priority} sorts LOW &lt; NORMAL &lt; HIGH (so
     * {@code priority:desc} puts HIGH first), {@code updatedAt} by the last change of the job or its pods.
     */
    public enum SortField {
        submittedAt, name, status, queueSeconds, runSeconds, updatedAt, priority
    }

    public record Sort(SortField field, boolean descending) {
        /** {@code submittedAt:desc}: the spelling the cursor remembers. */
        public String key() {
            return field + ":" + (descending ? "desc" : "asc");
        }
    }
}
