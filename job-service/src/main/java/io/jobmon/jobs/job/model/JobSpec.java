package io.jobmon.jobs.job.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.jobmon.contracts.access.Visibility;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * What a user submits (api.md, "Job spec"). The same record carries clone overrides, where a null field means
 * "keep the source job's value".
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(requiredProperties = {"name", "project", "cluster", "image"}, description = "A job to submit: what runs, "
        + "where (cluster, queue), with what (resources, volumes), and how it is handled (tags, visibility, restarts)")
public record JobSpec(String name, String project, String cluster, String region, String queue, Priority priority,
        String image, List<String> command, List<String> args, Map<String, String> env, String workingDir,
        Integer replicas, Resources resources, List<VolumeSpec> volumes, List<String> tags, Visibility visibility,
        Boolean supportsRestart, Boolean autoFaultHandling, Integer maxRetries, Map<String, String> labels) {

    /** Compute resources of one replica (pod). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "JobResources", description = "gpuType is required with GPUs (one of the queue's models, GET /api/v1/queues)")
    public record Resources(String gpuType, Integer gpusPerReplica, String cpu, String memory) {
    }

    /**
     * A volume claim mounted into every replica.
     *
     * @param project the project group the volume belongs to; the job's project when the submitter names none
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(requiredProperties = {"name", "claimName", "mountPath"})
    public record VolumeSpec(String name, String claimName, String mountPath, Boolean readOnly, String project) {
    }

    public int replicasOrOne() {
        return replicas == null ? 1 : replicas;
    }

    public int gpusPerReplicaOrZero() {
        return resources == null || resources.gpusPerReplica() == null ? 0 : resources.gpusPerReplica();
    }
}
