package io.jobmon.diagnosis.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** Parses and validates the JSON catalogue described in {@code diagnosis/README.md}. */
final class CatalogueReader {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Set<String> SOURCES = Set.of("log", "event", "pod", "job");

    private CatalogueReader() {
    }

    static PatternCatalogue read(InputStream in) throws IOException {
        JsonNode root = MAPPER.readTree(in);
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("catalogue: the root must be a JSON object");
        }
        int version = root.path("version").asInt(1);
        EngineSettings settings = settings(root.path("settings"));
        Map<Category, PatternCatalogue.CategorySpec> categories = new EnumMap<>(Category.class);
        JsonNode cats = root.path("categories");
        for (Category c : Category.values()) {
            JsonNode n = cats.get(c.name());
            if (n == null || !n.isObject()) {
                throw new IllegalArgumentException("catalogue: category " + c + " is missing");
            }
            categories.put(c, category(c, n));
        }
        List<PatternCatalogue.PatternSpec> patterns = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (JsonNode p : root.path("patterns")) {
            PatternCatalogue.PatternSpec spec = pattern(p);
            if (!ids.add(spec.id())) {
                throw new IllegalArgumentException("catalogue: duplicate pattern id " + spec.id());
            }
            patterns.add(spec);
        }
        return new PatternCatalogue(version, patterns, categories, settings);
    }

    private static PatternCatalogue.CategorySpec category(Category c, JsonNode n) {
        String where = "catalogue: category " + c + ": ";
        try {
            Action action = Action.valueOf(n.path("action").asText());
            CategoryGroup group = CategoryGroup.valueOf(n.path("group").asText().toUpperCase(Locale.ROOT));
            List<Category> related = new ArrayList<>();
            for (JsonNode r : n.path("related")) {
                related.add(Category.valueOf(r.asText()));
            }
            Localized summary = localized(n.path("summary"));
            Localized unplaced = localized(n.path("summaryUnplaced"));
            boolean placed = summary.en().contains("{pod}") || summary.en().contains("{node}")
                    || summary.zh().contains("{pod}") || summary.zh().contains("{node}");
            if (summary.isEmpty() || (placed && unplaced.isEmpty())) {
                throw new IllegalArgumentException("needs a summary, and a summaryUnplaced when the summary names {pod} or {node}");
            }
            if (unplaced.en().contains("{pod}") || unplaced.en().contains("{node}")
                    || unplaced.zh().contains("{pod}") || unplaced.zh().contains("{node}")) {
                throw new IllegalArgumentException("summaryUnplaced may only use {job}");
            }
            return new PatternCatalogue.CategorySpec(c, action, group, n.path("rank").asInt(0), summary,
                    unplaced.isEmpty() ? summary : unplaced, localized(n.path("suggestion")),
                    localized(n.path("suggestionNoLog")), strings(n.path("resolvedBy"), false), related);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + e.getMessage(), e);
        }
    }

    private static PatternCatalogue.PatternSpec pattern(JsonNode n) {
        String id = n.path("id").asText("");
        if (id.isBlank()) {
            throw new IllegalArgumentException("catalogue: a pattern has no id");
        }
        String where = "catalogue: pattern '" + id + "': ";
        Category category = null;
        if (n.hasNonNull("category")) {
            try {
                category = Category.valueOf(n.get("category").asText());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + "unknown category " + n.get("category").asText());
            }
        }
        String marker = n.hasNonNull("marker") ? n.get("marker").asText() : null;
        if ((category == null) == (marker == null)) {
            throw new IllegalArgumentException(where + "needs exactly one of 'category' and 'marker'");
        }
        Set<String> sources = new LinkedHashSet<>(strings(n.path("sources"), true));
        if (sources.isEmpty() || !SOURCES.containsAll(sources)) {
            throw new IllegalArgumentException(where + "'sources' must be a non-empty subset of " + SOURCES);
        }
        List<String> keywords = strings(n.path("keywords"), true);
        if (keywords.isEmpty() || keywords.stream().anyMatch(String::isEmpty)) {
            throw new IllegalArgumentException(where + "needs at least one non-empty keyword");
        }
        Pattern regex;
        try {
            int flags = n.path("ignoreCase").asBoolean(false) ? Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE : 0;
            regex = Pattern.compile(n.path("regex").asText(""), flags);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException(where + "bad regex: " + e.getDescription(), e);
        }
        double weight = n.path("weight").asDouble(0.5);
        if (!(weight > 0 && weight <= 1)) {
            throw new IllegalArgumentException(where + "weight must be in (0, 1]");
        }
        String quote = n.path("quote").asText("line");
        String detail = n.hasNonNull("detail") ? n.get("detail").asText() : null;
        checkGroup(where, regex, quote, "quote");
        checkGroup(where, regex, detail, "detail");
        Action action = null;
        if (n.hasNonNull("action")) {
            try {
                action = Action.valueOf(n.get("action").asText());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + "unknown action " + n.get("action").asText());
            }
        }
        double failedPodNode = n.path("failedPodNodeWeight").asDouble(0);
        if (failedPodNode < 0 || failedPodNode > 1) {
            throw new IllegalArgumentException(where + "failedPodNodeWeight must be in [0, 1]");
        }
        CategoryGroup group = null;
        if (n.hasNonNull("group")) {
            try {
                group = CategoryGroup.valueOf(n.get("group").asText().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + "unknown group " + n.get("group").asText());
            }
        }
        return new PatternCatalogue.PatternSpec(id, category, marker, sources, keywords,
                strings(n.path("exclude"), true), regex, weight, n.path("priority").asInt(50),
                "symptom".equals(n.path("role").asText("cause")), quote, detail, action, failedPodNode, group);
    }

    private static void checkGroup(String where, Pattern regex, String group, String field) {
        if (group == null || "line".equals(group) || "match".equals(group)) {
            return;
        }
        if (!regex.pattern().contains("(?<" + group + ">")) {
            throw new IllegalArgumentException(where + "'" + field + "' names group '" + group + "' missing in the regex");
        }
    }

    private static Localized localized(JsonNode n) {
        return new Localized(n.path("en").asText(""), n.path("zh").asText(""));
    }

    private static List<String> strings(JsonNode n, boolean lowerCase) {
        List<String> out = new ArrayList<>();
        for (JsonNode s : n) {
            out.add(lowerCase ? s.asText().toLowerCase(Locale.ROOT) : s.asText());
        }
        return out;
    }

    private static EngineSettings settings(JsonNode n) {
        EngineSettings d = EngineSettings.defaults();
        if (n == null || !n.isObject()) {
            return d;
        }
        return new EngineSettings(
                Duration.ofSeconds(Math.round(n.path("hangMinutes").asDouble(d.hangThreshold().toSeconds() / 60.0) * 60)),
                n.path("idleUtilPercent").asDouble(d.idleUtilPercent()),
                n.path("slowdownRatio").asDouble(d.slowdownRatio()),
                n.path("maxEvidence").asInt(d.maxEvidence()),
                n.path("sawtoothHighPercent").asDouble(d.sawtoothHigh()),
                n.path("sawtoothLowPercent").asDouble(d.sawtoothLow()),
                n.path("thermalTempC").asDouble(d.thermalTempC()),
                ints(n.path("xidHardware"), d.xidHardware()),
                ints(n.path("xidApplication"), d.xidApplication()));
    }

    private static Set<Integer> ints(JsonNode n, Set<Integer> fallback) {
        if (n == null || !n.isArray()) {
            return fallback;
        }
        Set<Integer> out = new HashSet<>();
        n.forEach(v -> out.add(v.asInt()));
        return out;
    }
}
