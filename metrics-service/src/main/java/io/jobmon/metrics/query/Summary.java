package io.jobmon.metrics.query;

import org.eclipse.microprofile.openapi.annotations.media.Schema;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.util.List;

/**
 * A job's GPU summary: average and peak utilisation (percent), peak memory (MiB), GPU-hours (allocated GPUs × run
 * time, or the GPU time seen when the allocation is unknown) and idle GPU-hours (time a GPU averaged under the
 * idle threshold), for the job and per pod. {@code final} once written after the job ended.
 */
@Schema(name = "JobMetricsSummary")
public record Summary(String jobId, @JsonProperty("final") boolean finalSummary, Instant computedAt, Instant from, Instant to, int gpus,
        Double avgGpuUtil, Double peakGpuUtil, Double peakGpuMemMiB, double gpuHours, double idleGpuHours,
        List<Pod> pods) {

    /** The same figures for the GPUs of one pod ({@code pod} null: GPUs whose pod is not known). */
    @Schema(name = "PodMetricsSummary")
    public record Pod(String pod, int gpus, Double avgGpuUtil, Double peakGpuUtil, Double peakGpuMemMiB,
            double gpuHours, double idleGpuHours) {
    }
}
