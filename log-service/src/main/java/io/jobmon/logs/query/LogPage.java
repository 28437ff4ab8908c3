package io.jobmon.logs.query;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import java.util.List;

/**
 * A page of a job's log: the lines, {@code nextCursor} when more lines follow in the page's direction right now, and
 * the job's retention ({@code keptUntil}: when its logs go; absent while it runs).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(requiredProperties = {"items", "retention"})
public record LogPage(List<LogLine> items, String nextCursor, Retention retention) {

    /** How long this job's logs are kept: {@code days} after its end, so until {@code keptUntil}. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(requiredProperties = {"days"})
    public record Retention(int days, Instant keptUntil) {
    }
}
