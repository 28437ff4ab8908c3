package io.jobmon.diagnosis.engine;

import java.util.BitSet;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Diagnoses one training job from its {@link EvidenceBundle}: the root-cause {@link Category}, quoted
 * evidence, a suggestion (English, or Chinese for any {@code zh} locale), the {@link Action}, a
 * confidence and related categories.
 *
 * <p>Pipeline: progress lines give the real speed and the last time training advanced; the
 * {@link PatternCatalogue} is matched against the other log lines, events and pod states in one
 * keyword-prefiltered pass;
 * dcgm metrics give idle/saw-tooth utilisation, throttling, Xid and ECC signals; pattern matches that
 * were resolved (the pod later scheduled, training went on) are set aside; then
 * {@code RootCauseRanker} picks the root cause over its symptoms. Time is linear in the bundle size.
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

    /** Diagnoses; summary and suggestion are Chinese when {@code locale}'s language is {@code zh}. */
    public Diagnosis analyze(EvidenceBundle bundle, Locale locale) {
        Objects.requireNonNull(bundle, "bundle");
        Locale lang = locale == null ? Locale.ENGLISH : locale;
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
        FindingCandidates.collect(matches, judge, catalogue, live, resolved);
        HardwareSignals.collect(metrics, ctx, judge, settings, catalogue, live);
        BehaviourRules.collect(metrics, speed, settings, catalogue, bundle, live);
        HangDetector.detect(ctx, speed, metrics, settings, catalogue, bundle, live);

        RootCauseRanker.Choice choice = RootCauseRanker.choose(live, resolved, ctx);
        boolean unexplainedStop = choice.weak() && matches.hasMarker("sigterm") && !choice.winner().hasCause();
        if (choice.winner() == null || unexplainedStop) {
            List<Category> related = choice.related();
            return Outcome.conclude(ctx, speed, metrics, matches, related, writer, lang);
        }
        return writer.write(choice.winner(), choice.confidence(), choice.related(), ctx, lang);
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
