package io.jobmon.diagnosis.engine;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The versioned, data-driven catalogue of log/event/pod patterns, per-category texts (English and
 * Chinese), default actions, precedence and settings. The default one is the classpath resource
 * {@value #DEFAULT_RESOURCE}; its format is described in {@code diagnosis/README.md} next to it.
 * Immutable and thread-safe.
 */
public final class PatternCatalogue {

    /** Classpath location of the shipped catalogue. */
    public static final String DEFAULT_RESOURCE = "/diagnosis/patterns-v1.json";

    private static volatile PatternCatalogue defaults;

    private final int version;
    private final List<PatternSpec> patterns;
    private final Map<Category, CategorySpec> categories;
    private final EngineSettings settings;
    private final ReferenceCatalogues references;

    PatternCatalogue(int version, List<PatternSpec> patterns, Map<Category, CategorySpec> categories,
                     EngineSettings settings) {
        this(version, patterns, categories, settings, ReferenceCatalogues.empty());
    }

    private PatternCatalogue(int version, List<PatternSpec> patterns, Map<Category, CategorySpec> categories,
                             EngineSettings settings, ReferenceCatalogues references) {
        this.version = version;
        this.patterns = List.copyOf(patterns);
        this.categories = new EnumMap<>(categories);
        this.settings = Objects.requireNonNull(settings);
        this.references = Objects.requireNonNull(references);
    }

    /**
     * This pattern layer with the generic rules of the reference catalogues under it ({@link CatalogueRules}): their
     * codes, classes and message forms become patterns matched in the same keyword pass, and their metric, Xid and
     * exit-code tables are read by the metric rules.
     */
    public PatternCatalogue withReferences(ReferenceCatalogues refs) {
        List<PatternSpec> all = new java.util.ArrayList<>(patterns);
        Set<String> ids = new java.util.HashSet<>();
        patterns.forEach(p -> ids.add(p.id()));
        for (PatternSpec p : CatalogueRules.patterns(refs)) {
            if (!ids.add(p.id())) {
                throw new IllegalArgumentException("catalogue: duplicate pattern id " + p.id());
            }
            all.add(p);
        }
        return new PatternCatalogue(version, all, categories, settings, refs);
    }

    /** The reference catalogues under the pattern layer (empty for a catalogue loaded alone). */
    public ReferenceCatalogues references() {
        return references;
    }

    /**
     * Reads and validates a catalogue (JSON). The stream is not closed.
     *
     * @throws IllegalArgumentException naming the bad pattern or category
     */
    public static PatternCatalogue load(InputStream in) {
        try {
            return CatalogueReader.read(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the pattern catalogue", e);
        }
    }

    /**
     * The shipped catalogue, loaded once from {@value #DEFAULT_RESOURCE}, with the shipped reference catalogues
     * ({@link ReferenceCatalogues#defaults()}) under it.
     */
    public static PatternCatalogue defaults() {
        PatternCatalogue c = defaults;
        if (c == null) {
            synchronized (PatternCatalogue.class) {
                c = defaults;
                if (c == null) {
                    try (InputStream in = PatternCatalogue.class.getResourceAsStream(DEFAULT_RESOURCE)) {
                        if (in == null) {
                            throw new IllegalStateException("missing classpath resource " + DEFAULT_RESOURCE);
                        }
                        c = load(in).withReferences(ReferenceCatalogues.defaults());
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    defaults = c;
                }
            }
        }
        return c;
    }

    public int version() {
        return version;
    }

    public List<PatternSpec> patterns() {
        return patterns;
    }

    /** The texts, action and precedence of a category (every category has one). */
    public CategorySpec category(Category category) {
        return categories.get(category);
    }

    /** Thresholds from the catalogue's {@code settings} section (defaults for missing keys). */
    public EngineSettings settings() {
        return settings;
    }

    /**
     * One pattern: where it applies, what it means and how to quote it.
     *
     * @param id        unique id
     * @param category  the category it is evidence for, or {@code null} for a marker
     * @param marker    marker name (e.g. {@code scheduled}, {@code sigterm}) or {@code null}
     * @param sources   subset of {@code log, event, pod, job}
     * @param keywords  lower-case literals; the regex only runs on text containing one of them
     * @param exclude   lower-case literals; text containing one of them never matches
     * @param regex     the compiled regular expression (searched, not anchored)
     * @param weight    how strongly a match supports the category, 0..1
     * @param priority  when several patterns match one line, the highest priority wins
     * @param symptom   {@code true} if the match is usually a consequence of another failure
     * @param quote     {@code line}, {@code match} or the name of a capture group
     * @param detail    capture group used as summary detail, or {@code null}
     * @param action    action that replaces the category's default when this pattern matched, or {@code null}
     * @param failedPodNodeWeight weight (instead of {@code weight}, and as a cause) of a node-level finding on a
     *                  node where a pod of the job failed afterwards; 0 when the pattern has no such rule
     * @param group     precedence group the finding acts in instead of its category's, or {@code null} (a data
     *                  loader that timed out is a data-loading bottleneck that crashed the job: it ranks as a crash)
     * @param explanation what the matched code or class means (a reference catalogue row's), or {@code null}
     * @param contexts  the same pattern for another category, by the context the line shows (an errno on a socket
     *                  of a collective, on a device node, ...; see {@link TextContext}); empty for most patterns
     */
    public record PatternSpec(String id, Category category, String marker, Set<String> sources,
                              List<String> keywords, List<String> exclude, Pattern regex, double weight,
                              int priority, boolean symptom, String quote, String detail, Action action,
                              double failedPodNodeWeight, CategoryGroup group, Localized explanation,
                              Map<String, PatternSpec> contexts) {
        public PatternSpec {
            sources = Set.copyOf(sources);
            keywords = List.copyOf(keywords);
            exclude = List.copyOf(exclude);
            contexts = contexts == null ? Map.of() : Map.copyOf(contexts);
        }

        /** A pattern of the pattern layer: no explanation of its own, no contexts. */
        public PatternSpec(String id, Category category, String marker, Set<String> sources, List<String> keywords,
                           List<String> exclude, Pattern regex, double weight, int priority, boolean symptom,
                           String quote, String detail, Action action, double failedPodNodeWeight,
                           CategoryGroup group) {
            this(id, category, marker, sources, keywords, exclude, regex, weight, priority, symptom, quote, detail,
                    action, failedPodNodeWeight, group, null, Map.of());
        }

        boolean appliesTo(String source) {
            return sources.contains(source);
        }
    }

    /**
     * What the catalogue says about one category.
     *
     * @param category   the category
     * @param action     its default action
     * @param group      its precedence group
     * @param rank       precedence inside the group (higher wins)
     * @param summary    summary template ({@code {pod} {node} {job}} placeholders)
     * @param summaryUnplaced summary used when the template's {@code {pod}} or {@code {node}} is not known (only
     *                   {@code {job}}); required when {@code summary} has such a placeholder
     * @param suggestion suggestion text
     * @param suggestionNoLog suggestion used when the diagnosis quotes no log line (the main one may refer to
     *                   quoted lines), or empty
     * @param resolvedBy markers that, seen later for the same pod, show the problem went away
     * @param related    categories usually related to it
     */
    public record CategorySpec(Category category, Action action, CategoryGroup group, int rank,
                               Localized summary, Localized summaryUnplaced, Localized suggestion,
                               Localized suggestionNoLog, List<String> resolvedBy, List<Category> related) {
        public CategorySpec {
            resolvedBy = List.copyOf(resolvedBy);
            related = List.copyOf(related);
        }

        /** The summary template for a diagnosis that knows (or not) where the problem is. */
        Localized summaryFor(boolean podKnown, boolean nodeKnown) {
            boolean needsPod = summary.en().contains("{pod}");
            boolean needsNode = summary.en().contains("{node}");
            return (needsPod && !podKnown) || (needsNode && !nodeKnown) ? summaryUnplaced : summary;
        }

        /** The suggestion for a diagnosis that quotes (or not) a log line. */
        Localized suggestionFor(boolean logQuoted) {
            return logQuoted || suggestionNoLog.isEmpty() ? suggestion : suggestionNoLog;
        }
    }
}
