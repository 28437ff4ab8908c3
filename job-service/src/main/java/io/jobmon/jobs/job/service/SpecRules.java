package io.jobmon.jobs.job.service;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a spec is checked against: limits from {@code jobmon.jobs.*} and the configured clusters.
 *
 * @param clusters cluster name → its region and queues
 * @param volumesByProject whether volumes belong to projects ({@code jobmon.jobs.volumes.policy=project})
 */
public record SpecRules(int maxReplicas, int maxGpusPerReplica, int maxRetries, String defaultQueue,
        Map<String, ClusterInfo> clusters, TagRules tags, boolean volumesByProject) {

    /**
     * A cluster as submissions see it.
     *
     * @param type {@code KUBERNETES} or {@code EXTERNAL}
     * @param queues its queues (resource pools) in order; a cluster that names none has the default queue only
     */
    public record ClusterInfo(String region, String type, List<Queue> queues) {

        public List<String> queueNames() {
            return queues.stream().map(Queue::name).toList();
        }

        public Optional<Queue> queue(String name) {
            return queues.stream().filter(q -> q.name().equals(name)).findFirst();
        }
    }

    /**
     * A queue (resource pool) of a cluster and what it allows.
     *
     * @param gpuTypes the GPU models a job may ask for; empty: any
     * @param maxGpusPerReplica most GPUs per replica, or null for {@code jobmon.jobs.max-gpus-per-replica}
     * @param maxGpusPerJob most GPUs of a job (replicas × per replica), or null for no limit
     * @param gpus the pool's GPUs in total, for display; null when not configured
     * @param projects the project groups that may submit to it; empty: every project
     */
    public record Queue(String name, List<String> gpuTypes, Integer maxGpusPerReplica, Integer maxGpusPerJob,
            Integer gpus, List<String> projects, String description) {

        /** May a member of these groups (an admin: any) submit to this queue? */
        public boolean openTo(io.jobmon.contracts.access.Caller caller) {
            return projects.isEmpty() || caller.isAdmin() || projects.stream().anyMatch(caller::inGroup);
        }

        public boolean openToProject(String project) {
            return projects.isEmpty() || projects.contains(project);
        }
    }
}
