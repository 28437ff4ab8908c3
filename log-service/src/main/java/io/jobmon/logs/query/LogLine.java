package io.jobmon.logs.query;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;

/**
 * One line as the API returns it.
 *
 * @param stream {@code user} (the job's containers) or {@code system} (kubelet, containerd, device plugin, kernel of
 *        the job's nodes), as {@code logs.stream} of diagnosis evidence
 * @param source {@code stdout}/{@code stderr} for user lines; the unit or container for system lines
 * @param masked present when a secret was masked in it; {@code cut} when it was cut at the size limit
 * @param cursor this line's position: {@code cursor} of a next query continues after (or before) it
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LogLine(Instant time, String stream, String pod, String container, String node, String source,
        String line, Boolean masked, Boolean cut, String cursor) {
}
