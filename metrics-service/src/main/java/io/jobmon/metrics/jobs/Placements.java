package io.jobmon.metrics.jobs;

import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.contracts.events.JobStatus;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * When a job's pods ran on which node, from its successive snapshots on {@code jobmon.job.changes}: an interval
 * opens when a node first appears while the job runs and closes when the node leaves, the job waits again, or
 * the job ends. A compacted topic may hold only a job's last snapshot: a finished job seen for the first time
 * gets closed intervals from its start to its end on its nodes.
 */
public final class Placements {

    /** A job's stay on a node; {@code toMs} null while it lasts. Pods and GPUs on the node when known. */
    public record Interval(String node, long fromMs, Long toMs, List<String> pods, Integer gpus) {

        public boolean open() {
            return toMs == null;
        }

        Interval close(long at) {
            return new Interval(node, fromMs, Math.max(fromMs, at), pods, gpus);
        }

        public boolean covers(long ms) {
            return ms >= fromMs && (toMs == null || ms < toMs);
        }
    }

    private Placements() {
    }

    static boolean holdsNodes(JobStatus s) {
        return s == JobStatus.RUNNING || s == JobStatus.STOPPING || s == JobStatus.PARTIALLY_PENDING;
    }

    static boolean ended(JobSnapshot s) {
        return s.deleted() || s.status() != null && (s.status().isFinal() || s.status() == JobStatus.ABNORMAL);
    }

    /** The job's intervals after {@code snapshot}, seen at {@code atMs} (the event's time). */
    public static List<Interval> next(List<Interval> current, JobSnapshot s, long atMs) {
        List<String> nodes = s.nodes() == null ? List.of() : s.nodes();
        List<String> podsHere = nodes.size() == 1 && s.pods() != null ? List.copyOf(s.pods()) : List.of();
        Integer gpus = s.gpuCount() > 0 && !nodes.isEmpty() && s.gpuCount() % nodes.size() == 0
                ? s.gpuCount() / nodes.size() : null;
        long start = s.startedAt() != null ? s.startedAt().toEpochMilli() : atMs;
        long end = s.finishedAt() != null ? s.finishedAt().toEpochMilli() : atMs;
        List<Interval> out = new ArrayList<>();
        if (ended(s)) {
            for (Interval i : current) {
                out.add(i.open() ? i.close(end) : i);
            }
            if (current.isEmpty() && s.startedAt() != null) {
                for (String n : nodes) {
                    out.add(new Interval(n, start, Math.max(start, end), podsHere, gpus));
                }
            }
            return out;
        }
        if (s.status() == null || !holdsNodes(s.status())) {
            for (Interval i : current) {
                out.add(i.open() ? i.close(atMs) : i);
            }
            return out;
        }
        Set<String> openNodes = new HashSet<>();
        for (Interval i : current) {
            if (i.open() && !nodes.contains(i.node())) {
                out.add(i.close(atMs));
            } else if (i.open()) {
                openNodes.add(i.node());
                out.add(new Interval(i.node(), i.fromMs(), null, podsHere.isEmpty() ? i.pods() : podsHere,
                        gpus != null ? gpus : i.gpus()));
            } else {
                out.add(i);
            }
        }
        for (String n : nodes) {
            if (!openNodes.contains(n)) {
                out.add(new Interval(n, current.isEmpty() ? Math.min(start, atMs) : atMs, null, podsHere, gpus));
            }
        }
        return out;
    }
}
