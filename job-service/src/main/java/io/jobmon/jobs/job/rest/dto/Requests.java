package io.jobmon.jobs.job.rest.dto;

import io.jobmon.contracts.access.Visibility;
import io.jobmon.jobs.job.service.ActionService;
import java.util.List;

/** Bodies of the action endpoints (unknown fields are a 400). */
public final class Requests {

    private Requests() {
    }

    /** {@code POST /jobs/{id}/resubmit}: mode (default NORMAL) and, for DEBUG, the command (default sleep infinity). */
    public record Resubmit(ActionService.Mode mode, List<String> debugCommand) {
    }

    public record Tags(List<String> tags) {
    }

    public record Shares(List<String> users) {
    }

    public record VisibilityChange(Visibility visibility) {
    }

    public record BatchDelete(List<String> ids) {
    }

    /** Per id: 204 deleted, 404 not found (or not visible), 403 not the owner, 409 not in a final state. */
    public record BatchDeleteResult(List<ActionService.DeleteResult> results) {
    }
}
