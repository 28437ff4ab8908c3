package io.jobmon.jobs.job.service;

import java.util.List;
import java.util.Map;

/**
 * What a spec is checked against: limits from {@code jobmon.jobs.*} and the configured clusters.
 *
 * @param clusters cluster name → its region and allowed queues (empty: any queue)
 * @param volumesByProject whether volumes belong to projects ({@code jobmon.jobs.volumes.policy=project})
 */
public record SpecRules(int maxReplicas, int maxGpusPerReplica, int maxRetries, String defaultQueue,
        Map<String, ClusterInfo> clusters, TagRules tags, boolean volumesByProject) {

    public record ClusterInfo(String region, List<String> queues) {
    }
}
