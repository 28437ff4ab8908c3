package io.jobmon.diagnosis.engine;

import java.util.List;

/**
 * Builds the {@link BilingualDiagnosis}: summary and suggestion in both languages, evidence cap, action.
 *
 * <p>A summary names only what it knows: {@code {pod}} is a pod, {@code {node}} a node; when the
 * template needs one the evidence does not give, the category's {@code summaryUnplaced} (which names
 * the job) is used. A suggestion that refers to quoted log lines is replaced by the category's
 * {@code suggestionNoLog} when no log line is quoted.
 */
final class DiagnosisWriter {

    private final PatternCatalogue catalogue;
    private final int maxEvidence;

    DiagnosisWriter(PatternCatalogue catalogue, EngineSettings settings) {
        this.catalogue = catalogue;
        this.maxEvidence = settings.maxEvidence();
    }

    BilingualDiagnosis write(Candidate winner, double confidence, List<Category> related, JobContext ctx) {
        return build(winner.category, winner.pod(), winner.node(), winner.detail(), winner.topEvidence(maxEvidence),
                confidence, related, winner.action(), ctx);
    }

    BilingualDiagnosis build(Category category, String pod, String node, Localized detail,
                             List<BilingualEvidence> evidence, double confidence, List<Category> related,
                             Action action, JobContext ctx) {
        PatternCatalogue.CategorySpec spec = catalogue.category(category);
        String job = ctx.jobName();
        String host = node != null ? node : ctx.nodeOf(pod);
        Localized template = spec.summaryFor(pod != null, host != null);
        Localized summary = new Localized(fill(template.en(), pod, host, job), fill(template.zh(), pod, host, job));
        if (detail != null && !detail.isEmpty()) {
            // a detail the same in both languages is quoted from the evidence: the cluster's words, in quotes in Chinese
            summary = summary.append(": ", "：", detail.en().equals(detail.zh())
                    ? new Localized(detail.en(), "“" + detail.zh() + "”") : detail);
        }
        Action chosen = category == Category.HEALTHY ? Action.NONE : action != null ? action : spec.action();
        List<BilingualEvidence> quoted = evidence.size() > maxEvidence ? evidence.subList(0, maxEvidence) : evidence;
        boolean logQuoted = quoted.stream().anyMatch(e -> Evidence.LOG.equals(e.source()));
        return new BilingualDiagnosis(category, summary, quoted, spec.suggestionFor(logQuoted), chosen,
                Math.max(0, Math.min(1, Math.round(confidence * 100) / 100.0)), related);
    }

    private static String fill(String template, String pod, String node, String job) {
        return template.replace("{pod}", pod == null ? "" : pod).replace("{node}", node == null ? "" : node)
                .replace("{job}", job);
    }
}
