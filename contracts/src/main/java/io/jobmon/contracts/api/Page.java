package io.jobmon.contracts.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * One page of every list the API returns (api.md): {@code items}, and {@code nextCursor} to pass as {@code cursor}
 * for the next page, absent on the last one.
 */
@Schema(requiredProperties = "items")
public record Page<T>(List<T> items, @JsonInclude(JsonInclude.Include.NON_NULL) String nextCursor) {

    public Page {
        items = items == null ? List.of() : items;
    }

    public static <T> Page<T> last(List<T> items) {
        return new Page<>(items, null);
    }
}
