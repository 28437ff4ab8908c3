package io.jobmon.logs.query;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import java.util.List;

/**
 * The pods and containers of a job that have logs ({@code items}), and the system sources of its nodes during its
 * run ({@code system}), each with first and last line time, lines and raw bytes.
 */
@Schema(requiredProperties = {"items", "system", "retention"})
public record PodsView(List<Pod> items, List<SystemSource> system, LogPage.Retention retention) {

    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "LogPod", requiredProperties = {"pod", "lines", "bytes", "containers"})
    public record Pod(String pod, String namespace, String node, Instant firstTime, Instant lastTime, long lines, long bytes,
            List<Container> containers) {
    }

    @Schema(name = "LogContainer", requiredProperties = {"name", "lines", "bytes"})
    public record Container(String name, Instant firstTime, Instant lastTime, long lines, long bytes) {
    }

    @Schema(name = "LogSystemSource", requiredProperties = {"node", "source", "lines", "bytes"})
    public record SystemSource(String node, String source, Instant firstTime, Instant lastTime, long lines, long bytes) {
    }
}
