package io.jobmon.jobs.lookup;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** What the lookups answer: the values the console's filters, the submit form and the share dialog offer. */
public final class LookupViews {

    private LookupViews() {
    }

    /**
     * A cluster jobs can run on.
     *
     * @param type {@code KUBERNETES} (jobmon submits and watches) or {@code EXTERNAL} (another system runs it)
     */
    @Schema(requiredProperties = {"name", "region", "type", "queues"})
    public record Cluster(String name, String region, @Schema(enumeration = {"KUBERNETES", "EXTERNAL"}) String type,
            List<Queue> queues) {
    }

    /**
     * A queue (resource pool) of a cluster.
     *
     * @param gpuTypes GPU models a job may ask for (empty: any)
     * @param maxGpusPerReplica most GPUs per replica (pod)
     * @param maxGpusPerJob most GPUs of one job, when the pool limits it
     * @param gpus the pool's GPUs in total, when configured
     * @param projects project groups that may submit to it (empty: every project)
     * @param mayUse whether the caller may submit to it
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "ClusterQueue", requiredProperties = {"name", "gpuTypes", "maxGpusPerReplica", "projects", "mayUse"})
    public record Queue(String name, List<String> gpuTypes, int maxGpusPerReplica, Integer maxGpusPerJob,
            Integer gpus, List<String> projects, String description, boolean mayUse) {
    }

    /** A queue the caller may submit to, with its cluster and region. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(requiredProperties = {"cluster", "region", "name", "gpuTypes", "maxGpusPerReplica"})
    public record SubmittableQueue(String cluster, String region, String name, List<String> gpuTypes,
            int maxGpusPerReplica, Integer maxGpusPerJob, Integer gpus, String description) {
    }

    /**
     * A project group.
     *
     * @param member whether the caller belongs to it (admins also see the other projects of their tenant's jobs)
     */
    @Schema(requiredProperties = {"name", "member"})
    public record Project(String name, boolean member) {
    }

    /** A tag in use and how many of the jobs in scope carry it. */
    @Schema(requiredProperties = {"tag", "count"})
    public record TagCount(String tag, long count) {
    }

    /**
     * A user of the caller's tenant as jobmon has seen them.
     *
     * @param groups their project groups when they last called jobmon
     */
    @Schema(requiredProperties = {"name", "groups", "lastSeenAt"})
    public record User(String name, List<String> groups, Instant lastSeenAt) {
    }
}
