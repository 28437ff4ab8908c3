package io.jobmon.diagnosis.engine;

import java.util.Map;
import java.util.function.Function;

/** Turns the pattern matches that still count into {@link Candidate}s, one per category. */
final class FindingCandidates {

    private FindingCandidates() {
    }

    /**
     * Adds the counting matches to {@code out}; categories whose matches were all resolved go to
     * {@code resolved} (they become "related" at most).
     */
    static void collect(MatchSet matches, FindingJudge judge, PatternCatalogue catalogue,
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
            add(c, h);
        }
    }

    private static void add(Candidate c, MatchSet.Hits h) {
        PatternCatalogue.PatternSpec p = h.pattern;
        Finding top = h.first;
        for (Finding f : h.samples) {
            if (f.detail() != null && top.detail() == null) {
                top = f;
            }
        }
        c.support(p.weight(), !p.symptom(), h.first.time(), top.pod(), top.node(),
                top.detail() == null ? null : Localized.of(top.detail()));
        double w = p.weight();
        for (Finding f : h.samples) {
            c.evidence(f.toEvidence(), f == h.first ? w : w - 0.01);
        }
        if (h.last != h.first && !h.samples.contains(h.last)) {
            c.evidence(h.last.toEvidence(), w - 0.02);
        }
    }
}
