package io.jobmon.logs.query;

import io.jobmon.logs.attribution.Attribution;
import io.jobmon.logs.attribution.JobSystemLines;
import io.jobmon.logs.chunk.ChunkData;
import java.util.List;

/**
 * Which streams a query reads: the job's user streams (optionally one pod, one container) and/or the system streams
 * of the job's nodes within its run window {@code [systemFrom, systemTo)} (epoch nanoseconds), of those only the
 * lines {@code attribution} says are the job's (null: every line, the admins' node view).
 */
public record Scope(String jobId, boolean user, boolean system, String pod, String container, List<String> nodes,
        long systemFrom, long systemTo, JobSystemLines attribution) {

    /** A scope of every line of its streams. */
    public Scope(String jobId, boolean user, boolean system, String pod, String container, List<String> nodes,
            long systemFrom, long systemTo) {
        this(jobId, user, system, pod, container, nodes, systemFrom, systemTo, null);
    }

    /** Whose a system line of the chunk is, by line ({@code null} entries: not the job's); null when all are shown. */
    public Attribution[] attribute(ChunkMeta m, ChunkData d) {
        if (attribution == null || !m.system()) {
            return null;
        }
        Attribution[] out = new Attribution[d.size];
        for (int i = 0; i < d.size; i++) {
            if (d.times[i] >= systemFrom && d.times[i] < systemTo) {
                out[i] = attribution.attribute(m.node(), m.container(), d.times[i], d.line(i));
            }
        }
        return out;
    }
}
