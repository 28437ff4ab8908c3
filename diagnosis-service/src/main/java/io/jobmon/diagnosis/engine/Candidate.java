package io.jobmon.diagnosis.engine;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Everything found for one category: how strongly the evidence supports it, whether any of it is a
 * cause rather than a symptom, when it began, where, the evidence to quote, and an action that
 * replaces the category's default when the evidence says so (a quota the request can never fit).
 */
final class Candidate {

    private record Weighted(BilingualEvidence evidence, double weight, int order) {
    }

    final Category category;
    final PatternCatalogue.CategorySpec spec;
    private double best;
    private int patterns;
    private boolean cause;
    private Instant onset;
    private String pod;
    private String node;
    private Localized detail = Localized.of("");
    private double detailWeight = -1;
    private Action action;
    private CategoryGroup group;
    private final Set<String> sources = new HashSet<>();
    private final List<Weighted> evidence = new ArrayList<>();
    private int order;

    Candidate(PatternCatalogue.CategorySpec spec) {
        this.category = spec.category();
        this.spec = spec;
    }

    /** Adds one piece of support; the strongest one decides where the problem is and its detail. */
    Candidate support(double weight, boolean isCause, Instant time, String atPod, String atNode, Localized text) {
        patterns++;
        best = Math.max(best, weight);
        cause |= isCause;
        if (time != null && weight >= 0.6 && (onset == null || time.isBefore(onset))) {
            onset = time;
        }
        if (weight > detailWeight) {
            detailWeight = weight;
            pod = atPod;
            node = atNode;
            detail = text == null ? Localized.of("") : text;
        }
        return this;
    }

    Candidate evidence(BilingualEvidence e, double weight) {
        evidence.add(new Weighted(e, weight, order++));
        if (e != null) {
            sources.add(e.source());
        }
        return this;
    }

    /** The action the evidence calls for instead of the category's default (the strongest reason wins). */
    Candidate action(Action a, Localized why) {
        if (a != null) {
            action = a;
            if (why != null && !why.isEmpty()) {
                detail = detail.append("; ", "；", why);
            }
        }
        return this;
    }

    Action action() {
        return action;
    }

    /** Ranks in {@code g} instead of its category's group (see {@link PatternCatalogue.PatternSpec#group()}). */
    Candidate actsIn(CategoryGroup g) {
        if (g != null) {
            group = g;
        }
        return this;
    }

    /** The precedence group it ranks in. */
    CategoryGroup group() {
        return group != null ? group : spec.group();
    }

    /** Best weight plus a small bonus when several patterns or sources agree. */
    double strength() {
        double bonus = Math.min(0.06, 0.03 * (patterns - 1)) + (sources.size() > 1 ? 0.02 : 0.0);
        return Math.min(0.99, best + Math.max(0, bonus));
    }

    boolean hasCause() {
        return cause;
    }

    /** All its evidence is pod or container state (an exit code, a reason), nothing from logs, events or metrics. */
    boolean onlyPodState() {
        return !sources.isEmpty() && sources.stream().allMatch(Evidence.POD::equals);
    }

    Instant onset() {
        return onset;
    }

    String pod() {
        return pod;
    }

    String node() {
        return node;
    }

    Localized detail() {
        return detail;
    }

    /** The strongest distinct evidence items, most decisive first. */
    List<BilingualEvidence> topEvidence(int max) {
        List<Weighted> sorted = new ArrayList<>(evidence);
        sorted.sort(Comparator.comparingDouble(Weighted::weight).reversed().thenComparingInt(Weighted::order));
        Set<String> seen = new LinkedHashSet<>();
        List<BilingualEvidence> out = new ArrayList<>();
        for (Weighted w : sorted) {
            if (out.size() >= max) {
                break;
            }
            if (seen.add(w.evidence().source() + "|" + w.evidence().text().en())) {
                out.add(w.evidence());
            }
        }
        return out;
    }
}
