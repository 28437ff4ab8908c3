package io.jobmon.diagnosis.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Picks the root cause among the candidates.
 * <ol>
 *   <li>Job state gates what can apply: a succeeded job has no failure; a hang needs a job that ran.</li>
 *   <li>An infrastructure finding that began well after the first crash did not cause it: more than 2 minutes
 *       after it, or 10 when the first failure was a network error (the peers of a dead node notice first).</li>
 *   <li>Groups are tried in order (infrastructure, pre-start, crash, behaviour; pre-start first for a job
 *       that is still pending); the first group with a
 *       decisive candidate (strength &ge; {@value #DECISIVE}) wins, so a node failure or a GPU Xid beats the
 *       OOMKilled and NCCL timeouts it causes.</li>
 *   <li>Inside the infrastructure and crash groups, causes beat symptoms (an NCCL watchdog timeout is usually
 *       the echo of a failure elsewhere) and the earliest onset gets a bonus: the first failure is the cause.
 *       Pre-start and behaviour groups use the catalogue rank.</li>
 *   <li>Without a decisive candidate the strongest weak one is taken with reduced confidence.</li>
 * </ol>
 */
final class RootCauseRanker {

    static final double DECISIVE = 0.6;
    /**
     * An infrastructure finding may trail the first crash it caused by this much: a node is reported NotReady about
     * a minute after it stops, a GPU's Xid lands in the log next to the CUDA error it causes.
     */
    private static final Duration INFRA_AFTER_CRASH = Duration.ofMinutes(2);
    /** Peers' network errors (IB retry exceeded, broken sockets) can precede the node events by minutes. */
    private static final Duration INFRA_AFTER_NETWORK_ERROR = Duration.ofMinutes(10);
    private static final List<CategoryGroup> ORDER = List.of(CategoryGroup.INFRASTRUCTURE, CategoryGroup.PRESTART,
            CategoryGroup.CRASH, CategoryGroup.BEHAVIOUR);
    /** A job waiting to start is blocked by its pre-start problem now, whatever ended its last run. */
    private static final List<CategoryGroup> PENDING_ORDER = List.of(CategoryGroup.PRESTART,
            CategoryGroup.INFRASTRUCTURE, CategoryGroup.CRASH, CategoryGroup.BEHAVIOUR);

    /** The choice; {@code winner} is null when nothing applies. */
    record Choice(Candidate winner, double confidence, boolean weak, List<Category> related) {
    }

    private RootCauseRanker() {
    }

    static Choice choose(Map<Category, Candidate> live, Map<Category, Candidate> resolved, JobContext ctx) {
        List<Candidate> eligible = eligible(live, ctx);
        Candidate winner = null;
        boolean weak = false;
        double confidence = 0;
        for (CategoryGroup g : ctx.isPending() ? PENDING_ORDER : ORDER) {
            List<Candidate> group = eligible.stream().filter(c -> c.group() == g && c.strength() >= DECISIVE).toList();
            if (!group.isEmpty()) {
                List<Candidate> ranked = rank(group, g);
                winner = ranked.get(0);
                confidence = winner.strength();
                if (ranked.size() > 1 && score(ranked.get(1), group, g) > score(winner, group, g) - 0.1) {
                    confidence -= 0.1;
                }
                break;
            }
        }
        if (winner == null) {
            double floor = ctx.isFailedLike() || ctx.status() == null ? 0.3 : 0.45;
            winner = eligible.stream().filter(c -> c.strength() >= floor)
                    .max(Comparator.comparingDouble(Candidate::strength)).orElse(null);
            weak = winner != null;
            confidence = winner == null ? 0 : winner.strength() * 0.8;
        }
        return new Choice(winner, Math.max(0.3, Math.min(0.98, confidence)), weak, related(winner, live, resolved));
    }

    private static List<Candidate> eligible(Map<Category, Candidate> live, JobContext ctx) {
        Instant crashOnset = null;
        Category firstCrash = null;
        for (Candidate c : live.values()) {
            if (c.group() == CategoryGroup.CRASH && c.hasCause() && c.strength() >= DECISIVE && c.onset() != null
                    && (crashOnset == null || c.onset().isBefore(crashOnset))) {
                crashOnset = c.onset();
                firstCrash = c.category;
            }
        }
        Instant infraLimit = crashOnset == null ? null : crashOnset.plus(
                firstCrash == Category.NCCL_COMMUNICATION_ERROR ? INFRA_AFTER_NETWORK_ERROR : INFRA_AFTER_CRASH);
        List<Candidate> out = new ArrayList<>();
        for (Candidate c : live.values()) {
            CategoryGroup g = c.group();
            boolean hang = c.category == Category.TRAINING_HANG;
            if (ctx.isSucceeded() && (g != CategoryGroup.BEHAVIOUR || hang)) {
                continue;
            }
            if (g == CategoryGroup.BEHAVIOUR && !hang && !ctx.isLive() && !ctx.isSucceeded()) {
                continue;
            }
            if (g == CategoryGroup.INFRASTRUCTURE && infraLimit != null && c.onset() != null
                    && c.onset().isAfter(infraLimit)) {
                continue;
            }
            out.add(c);
        }
        return out;
    }

    private static List<Candidate> rank(List<Candidate> group, CategoryGroup g) {
        List<Candidate> sorted = new ArrayList<>(group);
        sorted.sort(Comparator.comparingDouble((Candidate c) -> score(c, group, g)).reversed());
        return sorted;
    }

    /** Rank-ordered groups score by catalogue rank; the others by cause strength plus an onset bonus. */
    private static double score(Candidate c, List<Candidate> group, CategoryGroup g) {
        if (g == CategoryGroup.PRESTART || g == CategoryGroup.BEHAVIOUR) {
            return c.spec.rank() + c.strength() / 10.0;
        }
        boolean anyCause = group.stream().anyMatch(Candidate::hasCause);
        double s = c.hasCause() || !anyCause ? c.strength() : c.strength() * 0.7;
        return s + (earliest(c, group) ? 0.1 : 0.0);
    }

    private static boolean earliest(Candidate c, List<Candidate> group) {
        if (c.onset() == null || !c.hasCause()) {
            return false;
        }
        for (Candidate d : group) {
            if (d != c && d.onset() != null && d.hasCause() && c.onset().isAfter(d.onset().minusSeconds(30))) {
                return false;
            }
        }
        return true;
    }

    private static List<Category> related(Candidate winner, Map<Category, Candidate> live,
                                          Map<Category, Candidate> resolved) {
        Set<Category> out = new LinkedHashSet<>();
        live.values().stream().filter(c -> c != winner && c.strength() >= 0.3)
                .sorted(Comparator.comparingDouble(Candidate::strength).reversed())
                .forEach(c -> out.add(c.category));
        resolved.keySet().forEach(out::add);
        if (winner != null) {
            out.remove(winner.category);
            if (out.isEmpty()) {
                out.addAll(winner.spec.related());
            }
        }
        return out.stream().limit(4).toList();
    }
}
