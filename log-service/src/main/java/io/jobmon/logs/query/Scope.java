package io.jobmon.logs.query;

import java.util.List;

/**
 * Which streams a query reads: the job's user streams (optionally one pod, one container) and/or the system streams
 * of the job's nodes within its run window {@code [systemFrom, systemTo)} (epoch nanoseconds).
 */
public record Scope(String jobId, boolean user, boolean system, String pod, String container, List<String> nodes,
        long systemFrom, long systemTo) {
}
