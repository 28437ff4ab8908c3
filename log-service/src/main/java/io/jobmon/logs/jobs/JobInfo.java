package io.jobmon.logs.jobs;

import java.time.Instant;
import java.util.List;

/**
 * What log-service knows of a job beyond access: its name, run window and nodes.
 *
 * @param expiredAt when its logs were removed (retention or deletion); null while kept
 */
public record JobInfo(String jobId, String tenant, String name, Instant submittedAt, Instant startedAt,
        Instant finishedAt, List<String> nodes, Instant expiredAt) {
}
