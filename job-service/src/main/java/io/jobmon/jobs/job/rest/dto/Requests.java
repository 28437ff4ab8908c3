package io.jobmon.jobs.job.rest.dto;

import io.jobmon.contracts.access.Visibility;
import io.jobmon.jobs.job.service.ActionService;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** Bodies of the action endpoints (unknown fields are a 400). */
public final class Requests {

    private Requests() {
    }

    /** {@code POST /jobs/{id}/resubmit}: mode (default NORMAL) and, for DEBUG, the command (default sleep infinity). */
    public record Resubmit(ActionService.Mode mode, List<String> debugCommand) {
    }

    /** {@code PUT /jobs/{id}/tags}: the job's tags (an empty list removes every tag). */
    @Schema(name = "TagsRequest", requiredProperties = "tags")
    public record Tags(List<String> tags) {
    }

    /** {@code PUT /jobs/{id}/shares}: users of the caller's tenant known to jobmon ({@code GET /users}). */
    @Schema(name = "SharesRequest", requiredProperties = "users")
    public record Shares(List<String> users) {
    }

    @Schema(requiredProperties = "visibility")
    public record VisibilityChange(Visibility visibility) {
    }

    /** {@code POST /jobs/batch-delete}: up to 500 job ids. */
    @Schema(requiredProperties = "ids")
    public record BatchDelete(List<String> ids) {
    }

    /** Per id: 204 deleted, 404 not found (or not visible), 403 not the owner, 409 not in a final state. */
    @Schema(requiredProperties = "results")
    public record BatchDeleteResult(List<DeleteResult> results) {
    }

    /** One id of a batch delete: its status as a single DELETE would answer, and why, in the reader's language. */
    @Schema(requiredProperties = {"id", "status", "detail"})
    public record DeleteResult(String id, int status, String detail) {
    }
}
