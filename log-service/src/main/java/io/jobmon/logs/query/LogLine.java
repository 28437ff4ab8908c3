package io.jobmon.logs.query;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.jobmon.logs.attribution.Attribution;
import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * One line as the API returns it.
 *
 * @param stream {@code user} (the job's containers) or {@code system} (kubelet, containerd, device plugin, kernel of
 *        the job's nodes), as {@code logs.stream} of diagnosis evidence
 * @param source {@code stdout}/{@code stderr} for user lines; the unit or container for system lines
 * @param masked present when a secret was masked in it; {@code cut} when it was cut at the size limit
 * @param cursor this line's position: {@code cursor} of a next query continues after (or before) it
 * @param attribution of a system line in a job's logs: why it is the job's (its pod, a GPU it held, the whole node);
 *        absent on user lines and on the admins' node view
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(requiredProperties = {"time", "stream", "line", "cursor"})
public record LogLine(Instant time, @Schema(enumeration = {"user", "system"}) String stream, String pod, String container, String node, String source,
        String line, Boolean masked, Boolean cut, String cursor, Attribution attribution) {
}
