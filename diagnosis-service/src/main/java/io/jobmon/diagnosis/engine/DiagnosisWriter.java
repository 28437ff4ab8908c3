package io.jobmon.diagnosis.engine;

import java.util.List;
import java.util.Locale;

/** Builds the {@link Diagnosis}: summary and suggestion in the requested language, evidence cap, action. */
final class DiagnosisWriter {

    private final PatternCatalogue catalogue;
    private final int maxEvidence;

    DiagnosisWriter(PatternCatalogue catalogue, EngineSettings settings) {
        this.catalogue = catalogue;
        this.maxEvidence = settings.maxEvidence();
    }

    Diagnosis write(Candidate winner, double confidence, List<Category> related, JobContext ctx, Locale locale) {
        return build(winner.category, winner.pod(), winner.node(), winner.detail(), winner.topEvidence(maxEvidence),
                confidence, related, null, ctx, locale);
    }

    Diagnosis build(Category category, String pod, String node, Localized detail, List<Evidence> evidence,
                    double confidence, List<Category> related, Action action, JobContext ctx, Locale locale) {
        PatternCatalogue.CategorySpec spec = catalogue.category(category);
        String job = ctx.jobName();
        String where = pod != null ? pod : node != null ? node : job;
        String host = node != null ? node : ctx.nodeOf(pod) != null ? ctx.nodeOf(pod) : where;
        String summary = spec.summary().in(locale).replace("{pod}", where).replace("{node}", host).replace("{job}", job);
        String d = detail == null ? "" : detail.in(locale);
        if (!d.isBlank()) {
            summary = summary + (Localized.isChinese(locale) ? "：" : ": ") + d;
        }
        Action chosen = category == Category.HEALTHY ? Action.NONE : action != null ? action : spec.action();
        List<Evidence> quoted = evidence.size() > maxEvidence ? evidence.subList(0, maxEvidence) : evidence;
        return new Diagnosis(category, summary, quoted, spec.suggestion().in(locale), chosen,
                Math.round(confidence * 100) / 100.0, related);
    }
}
