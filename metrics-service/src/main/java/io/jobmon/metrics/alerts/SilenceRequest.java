package io.jobmon.metrics.alerts;

import java.time.Instant;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * An admin's new silence: label matchers (jobmon adds {@code tenant="<the admin's tenant>"}), when it starts (now
 * when absent) and ends ({@code endsAt}, or {@code duration} such as {@code 2h}), and why.
 */
@Schema(requiredProperties = {"matchers", "comment"})
public record SilenceRequest(List<Matcher> matchers, Instant startsAt, Instant endsAt,
        @Schema(description = "instead of endsAt: 30m, 2h, 1d or ISO 8601 (PT2H)") String duration, String comment) {

    /** {@code name="value"}; {@code isEqual: false} for {@code !=}, {@code isRegex: true} for {@code =~}. */
    @Schema(name = "SilenceRequestMatcher", requiredProperties = {"name", "value"})
    public record Matcher(String name, String value, Boolean isRegex, Boolean isEqual) {
    }
}
