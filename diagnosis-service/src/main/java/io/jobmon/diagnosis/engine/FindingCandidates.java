package io.jobmon.diagnosis.engine;

import java.util.Map;
import java.util.function.Function;

/**
 * Turns the pattern matches that still count into {@link Candidate}s, one per category, applying the
 * per-pattern rules of the catalogue: a pattern's own action (e.g. a quota the request can never fit),
 * and a node-level condition that becomes a decisive cause when a pod of the job failed on that node
 * after it ({@code failedPodNodeWeight}).
 */
final class FindingCandidates {

    private FindingCandidates() {
    }

    /**
     * Adds the counting matches to {@code out}; categories whose matches were all resolved go to
     * {@code resolved} (they become "related" at most).
     */
    static void collect(MatchSet matches, FindingJudge judge, JobContext ctx, PatternCatalogue catalogue,
                        Map<Category, Candidate> out, Map<Category, Candidate> resolved) {
        Function<Category, Candidate> create = c -> new Candidate(catalogue.category(c));
        for (MatchSet.Hits h : matches.hits()) {
            Category category = h.pattern.category();
            PatternCatalogue.CategorySpec spec = catalogue.category(category);
            FindingJudge.Verdict verdict = judge.judge(h, spec);
            if (verdict == FindingJudge.Verdict.IGNORED) {
                continue;
            }
            Candidate c = (verdict == FindingJudge.Verdict.COUNTS ? out : resolved).computeIfAbsent(category, create);
            add(c, h, ctx);
        }
    }

    private static void add(Candidate c, MatchSet.Hits h, JobContext ctx) {
        PatternCatalogue.PatternSpec p = h.pattern;
        Finding top = h.first;
        for (Finding f : h.samples) {
            if (f.detail() != null && top.detail() == null) {
                top = f;
            }
        }
        double w = p.weight();
        boolean cause = !p.symptom();
        if (p.failedPodNodeWeight() > 0 && ctx.podFailedOnNodeAfter(h.first.node(), h.first.time())) {
            w = Math.max(w, p.failedPodNodeWeight());
            cause = true;
        }
        Localized detail = top.detail() == null ? null : Localized.of(top.detail());
        if (p.explanation() != null) {
            detail = detail == null ? p.explanation() : detail.append(" - ", " - ", p.explanation());
        }
        c.support(w, cause, h.first.time(), top.pod(), top.node(), detail);
        for (Finding f : h.samples) {
            c.evidence(f.toEvidence(), f == h.first ? w : w - 0.01);
        }
        if (h.last != h.first && !h.samples.contains(h.last)) {
            c.evidence(h.last.toEvidence(), w - 0.02);
        }
        if (p.action() != null) {
            c.action(p.action(), null);
        }
        c.actsIn(p.group());
        if (c.category == Category.QUOTA_EXCEEDED && c.action() == null) {
            QuotaLimits.Excess x = QuotaLimits.aboveLimit(h.last.quote());
            if (x != null) {
                c.action(Action.TERMINATE, new Localized(
                        "the request alone (" + x.resource() + "=" + x.requested() + ") is above the quota's limit ("
                                + x.limited() + ")",
                        "仅本作业的申请（" + x.resource() + "=" + x.requested() + "）就超过了配额上限（" + x.limited() + "）"));
            }
        }
    }
}
