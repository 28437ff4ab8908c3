package io.jobmon.diagnosis.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * Decides whether the matches of a pattern still count as a problem, using time order and job state:
 * <ul>
 *   <li>a finding first seen well after a finished job ended is ignored;</li>
 *   <li>a node-level finding (a Node event, a node's kernel line) about a node none of the job's pods
 *       ran on is ignored: it concerns another job;</li>
 *   <li>a failure followed by real training progress was not fatal (a transient warning, or an error
 *       the job recovered from), unless it came back after a restart (a crash loop);</li>
 *   <li>a pre-start problem (scheduling, image pull, mount...) is resolved when the same pod later
 *       reached the stage it blocked (a marker such as {@code scheduled} or {@code started}, from an
 *       event after it or from the pod's current state); a problem of the job as a whole (a Job,
 *       PodGroup or Workload event) only by a dated marker after it, since the current state of one pod
 *       says nothing about the others.</li>
 * </ul>
 */
final class FindingJudge {

    enum Verdict { COUNTS, RESOLVED, IGNORED }

    private static final Duration AFTER_END = Duration.ofMinutes(5);
    private static final Duration PROGRESS_AFTER = Duration.ofSeconds(60);
    private static final Duration LOGS_AFTER = Duration.ofMinutes(5);
    private static final Duration RECUR_GAP = Duration.ofMinutes(2);

    private final JobContext ctx;
    private final SpeedReport speed;
    private final MatchSet matches;

    FindingJudge(JobContext ctx, SpeedReport speed, MatchSet matches) {
        this.ctx = ctx;
        this.speed = speed;
        this.matches = matches;
    }

    Verdict judge(MatchSet.Hits hits, PatternCatalogue.CategorySpec spec) {
        Instant finished = ctx.finishedAt();
        Instant first = hits.first.time();
        if (ctx.isTerminal() && finished != null && first != null && first.isAfter(finished.plus(AFTER_END))) {
            return Verdict.IGNORED;
        }
        if (otherNodes(hits)) {
            return Verdict.IGNORED;
        }
        CategoryGroup group = hits.pattern.group() != null ? hits.pattern.group() : spec.group();
        if (group == CategoryGroup.BEHAVIOUR) {
            return Verdict.COUNTS;
        }
        if (followedByProgress(hits.last) && !recurringCrash(hits)) {
            return Verdict.RESOLVED;
        }
        if (!spec.resolvedBy().isEmpty()) {
            for (Finding last : hits.lastByPod.values()) {
                if (!resolvedByMarker(last, spec)) {
                    return Verdict.COUNTS;
                }
            }
            return hits.lastByPod.isEmpty() ? Verdict.COUNTS : Verdict.RESOLVED;
        }
        return Verdict.COUNTS;
    }

    /** Every occurrence is about a node (not a pod) that runs none of the job's pods. */
    private boolean otherNodes(MatchSet.Hits hits) {
        if (!ctx.knowsPodNodes() || hits.placedOnPod) {
            return false;
        }
        return hits.podlessNodes.stream().noneMatch(ctx::runsOn);
    }

    /**
     * The same failure came back after the job had restarted (container restarts or a crash loop): the
     * progress between two occurrences does not make it transient.
     */
    private boolean recurringCrash(MatchSet.Hits hits) {
        Instant first = hits.first.time();
        Instant last = hits.last.time();
        return first != null && last != null && Duration.between(first, last).compareTo(RECUR_GAP) >= 0
                && (ctx.totalRestarts() > 0 || matches.hasMarker("crashloop"));
    }

    /** Training advanced at least a minute after {@code t}. */
    boolean followedByProgress(Instant t) {
        return t != null && speed.lastAdvance() != null && !speed.lastAdvance().isBefore(t.plus(PROGRESS_AFTER));
    }

    /** Training advanced (or, for a running job without restarts, its pod kept logging) after the finding. */
    boolean followedByProgress(Finding f) {
        Instant t = f.time();
        if (t == null) {
            return false;
        }
        if (followedByProgress(t)) {
            return true;
        }
        if ("RUNNING".equals(ctx.status()) && ctx.totalRestarts() == 0 && Evidence.LOG.equals(f.source())) {
            Instant last = ctx.lastLog(f.pod());
            return last != null && !last.isBefore(t.plus(LOGS_AFTER));
        }
        return false;
    }

    private boolean resolvedByMarker(Finding f, PatternCatalogue.CategorySpec spec) {
        if (f.time() == null) {
            return false;
        }
        for (String marker : spec.resolvedBy()) {
            for (Finding m : matches.markers(marker)) {
                boolean samePod = f.pod() == null || Objects.equals(f.pod(), m.pod());
                boolean later = m.time() == null ? f.pod() != null : m.time().isAfter(f.time());
                if (samePod && later) {
                    return true;
                }
            }
        }
        return false;
    }
}
