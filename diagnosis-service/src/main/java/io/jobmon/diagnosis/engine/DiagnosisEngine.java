package io.jobmon.diagnosis.engine;

import java.util.BitSet;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Diagnoses one training job from its {@link EvidenceBundle}: the root-cause {@link Category}, quoted
 * evidence, a suggestion, the {@link Action}, a confidence and related categories - in English and
 * Chinese from one analysis ({@link #analyzeBilingual}), or in one language ({@link #analyze}).
 *
 * <p>Pipeline (see {@code package-info}): progress lines give the real speed and the last time training
 * advanced; the {@link PatternCatalogue} is matched against the other log lines, events and pod states in
 * one keyword-prefiltered pass; dcgm metrics give idle/saw-tooth utilisation, throttling, Xid and ECC
 * signals; pattern matches that were resolved (the pod later scheduled, training went on) or concern
 * another node are set aside; {@code RootCauseRanker} picks the root cause over its symptoms. Missing
 * sources lower the confidence; a finding too weak to decide, a bare pod state (an exit code) or a
 * behaviour inferred from incomplete evidence (a hang without the logs or metrics that would show it)
 * becomes {@link Category#UNKNOWN} naming what is missing, never a guess. Time is linear in the bundle size.
 *
 * <p>Immutable and thread-safe: one instance can serve all requests.
 */
public final class DiagnosisEngine {

    private final PatternCatalogue catalogue;
    private final EngineSettings settings;
    private final PatternMatcher matcher;
    private final DiagnosisWriter writer;

    /** An engine with the shipped catalogue ({@link PatternCatalogue#defaults()}). */
    public DiagnosisEngine() {
        this(PatternCatalogue.defaults());
    }

    /** An engine with the given catalogue and its settings. */
    public DiagnosisEngine(PatternCatalogue catalogue) {
        this(catalogue, catalogue.settings());
    }

    /** An engine with the given catalogue and explicit settings (e.g. another hang threshold). */
    public DiagnosisEngine(PatternCatalogue catalogue, EngineSettings settings) {
        this.catalogue = Objects.requireNonNull(catalogue, "catalogue");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.matcher = new PatternMatcher(catalogue);
        this.writer = new DiagnosisWriter(catalogue, settings);
    }

    /** Diagnoses in English. */
    public Diagnosis analyze(EvidenceBundle bundle) {
        return analyze(bundle, Locale.ENGLISH);
    }

    /** Diagnoses; summary, suggestion and the engine's own evidence texts are Chinese for any {@code zh} locale. */
    public Diagnosis analyze(EvidenceBundle bundle, Locale locale) {
        return analyzeBilingual(bundle).in(locale == null ? Locale.ENGLISH : locale);
    }

    /** Diagnoses once, with every text in English and Chinese: for results stored before anyone reads them. */
    public BilingualDiagnosis analyzeBilingual(EvidenceBundle given) {
        Objects.requireNonNull(given, "bundle");
        EvidenceBundle bundle = NodeEvidence.ownOnly(given);
        JobContext ctx = new JobContext(bundle);
        List<ProgressPoint> progress = ProgressParser.parse(bundle.logs());
        BitSet progressLines = new BitSet(bundle.logs().size());
        progress.forEach(p -> progressLines.set(p.logIndex()));
        MatchSet matches = matcher.scan(bundle, ctx, progressLines);
        SpeedReport speed = SpeedAnalysis.analyze(progress, settings.slowdownRatio(), matches.hasMarker("resume"));
        MetricReport metrics = MetricAnalysis.analyze(bundle.metrics(), settings);
        FindingJudge judge = new FindingJudge(ctx, speed, matches);

        Map<Category, Candidate> live = new EnumMap<>(Category.class);
        Map<Category, Candidate> resolved = new EnumMap<>(Category.class);
        FindingCandidates.collect(matches, judge, ctx, catalogue, live, resolved);
        HardwareSignals.collect(metrics, ctx, judge, settings, catalogue, live);
        CatalogueSignals.collect(bundle.metrics(), ctx, judge, settings, catalogue, live);
        BehaviourRules.collect(metrics, speed, settings, catalogue, bundle, matches, live);
        HangDetector.detect(ctx, speed, metrics, settings, catalogue, bundle, live);

        Coverage coverage = new Coverage(bundle, ctx);
        Conclusions conclusions = new Conclusions(ctx, speed, metrics, matches, coverage, settings, writer);
        RootCauseRanker.Choice choice = RootCauseRanker.choose(live, resolved, ctx);
        Candidate winner = choice.winner();
        if (winner == null) {
            return conclusions.conclude(choice.related(), null);
        }
        boolean unexplainedStop = choice.weak() && matches.hasMarker("sigterm") && !winner.hasCause();
        if (unexplainedStop) {
            return conclusions.conclude(choice.related(), null);
        }
        double penalty = coverage.penalty();
        boolean podStateSymptom = !winner.hasCause() && winner.onlyPodState();
        boolean guess = choice.weak() && coverage.anyMissing();
        boolean inferredWithGaps = winner.group() == CategoryGroup.BEHAVIOUR && penalty > 0
                && winner.strength() - penalty < RootCauseRanker.DECISIVE;
        if (podStateSymptom || guess || inferredWithGaps) {
            return conclusions.conclude(choice.related(), winner);
        }
        return writer.write(winner, Math.max(0.3, choice.confidence() - penalty), choice.related(), ctx);
    }

    /** The catalogue this engine uses. */
    public PatternCatalogue catalogue() {
        return catalogue;
    }

    /** The settings this engine uses. */
    public EngineSettings settings() {
        return settings;
    }
}
