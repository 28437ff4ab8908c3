package io.jobmon.diagnosis.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The reference catalogues (issue #25): versioned data files under {@value #FOLDER}, listed in its
 * {@code index.json}, each row a code, class name or message form of a real system with its public source, its
 * category, action and a bilingual explanation (format: {@code diagnosis/catalogues/README.md}). Loaded once and
 * validated: a bad row fails the load naming file and row. {@link CatalogueRules} turns the rows into the engine's
 * generic rules. Immutable and thread-safe.
 */
public final class ReferenceCatalogues {

    /** Classpath folder of the shipped catalogues. */
    public static final String FOLDER = "/diagnosis/catalogues/";

    /** The kinds a row may have: each names the rule that reads it. */
    public static final Set<String> KINDS = Set.of("errno", "python-exception", "framework-exception", "cuda-error",
            "cudnn-status", "cublas-status", "nccl-result", "nccl-warn", "hccl-error", "ascend-error", "xid",
            "dcgm-field", "dcgm-health", "nvml-return", "k8s-container-reason", "k8s-event-reason", "kubelet-eviction",
            "scheduler-message", "exit-code", "signal", "s3-error", "http-status", "oom-form", "stall-form",
            "progress-form");

    private static final Pattern SIGNAL = Pattern.compile("counter-increase|nonzero|bitmask|gauge-above:-?\\d+(?:\\.\\d+)?");
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static volatile ReferenceCatalogues defaults;

    /** Where a row comes from. */
    public record Source(String title, String url, String version) {
    }

    /**
     * One row.
     *
     * @param file        the catalogue (file name without {@code .json})
     * @param kind        the catalogue's kind
     * @param id          unique in its file
     * @param code        the code / number / class name the source uses
     * @param names       symbolic names, class names, aliases
     * @param forms       how the source prints it (literal, case-insensitive), at least one
     * @param example     one full line as a program prints it
     * @param category    its category
     * @param action      its action
     * @param contexts    category by context word (storage, network, device, object-store, ...; synonyms mapped by
     *                    {@link TextContext#canonical}); a word the engine does not read is kept and reported by the
     *                    catalogue test, it never fails the service's start
     * @param explanation what it means, in English and Chinese
     * @param source      its source (the row's own or the file's)
     * @param signal      for {@code dcgm-field} rows: what shows the fault, else {@code null}
     * @param symptom     optional {@code "role": "symptom"}: usually the echo of a failure elsewhere (a launcher's
     *                    "child failed", a wrapper class); it decides only when no cause is found
     */
    public record Row(String file, String kind, String id, String code, List<String> names, List<String> forms,
                      String example, Category category, Action action, Map<String, Category> contexts,
                      Localized explanation, Source source, String signal, boolean symptom) {
        public Row {
            names = List.copyOf(names);
            forms = List.copyOf(forms);
            contexts = Map.copyOf(contexts);
        }

        /** The category of the row in a context, or its own category. */
        public Category categoryIn(String context) {
            return context == null ? category : contexts.getOrDefault(context, category);
        }

        /** A row that only informs: it decides no problem by itself. */
        public boolean informative() {
            return category == Category.HEALTHY || category == Category.UNKNOWN;
        }
    }

    /** One file. */
    public record Catalogue(String name, String kind, String version, Source source, List<Row> rows) {
        public Catalogue {
            rows = List.copyOf(rows);
        }
    }

    private final List<Catalogue> catalogues;

    ReferenceCatalogues(List<Catalogue> catalogues) {
        this.catalogues = List.copyOf(catalogues);
    }

    /** No catalogues (an engine that only has its pattern layer). */
    public static ReferenceCatalogues empty() {
        return new ReferenceCatalogues(List.of());
    }

    /** The shipped catalogues, loaded once from {@value #FOLDER}{@code index.json}. */
    public static ReferenceCatalogues defaults() {
        ReferenceCatalogues c = defaults;
        if (c == null) {
            synchronized (ReferenceCatalogues.class) {
                c = defaults;
                if (c == null) {
                    c = load(name -> ReferenceCatalogues.class.getResourceAsStream(FOLDER + name));
                    defaults = c;
                }
            }
        }
        return c;
    }

    /**
     * Loads {@code index.json} and every file it lists through {@code open} (a name to a stream, or null when
     * missing), validating every row.
     *
     * @throws IllegalArgumentException naming the file and row
     */
    public static ReferenceCatalogues load(Function<String, InputStream> open) {
        JsonNode index = readJson(open, "index.json");
        List<Catalogue> out = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (JsonNode f : index.path("files")) {
            String file = f.asText();
            if (!names.add(file)) {
                throw new IllegalArgumentException("catalogues: index.json lists " + file + " twice");
            }
            out.add(read(file, readJson(open, file)));
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("catalogues: index.json lists no file");
        }
        return new ReferenceCatalogues(out);
    }

    private static JsonNode readJson(Function<String, InputStream> open, String name) {
        try (InputStream in = open.apply(name)) {
            if (in == null) {
                throw new IllegalArgumentException("catalogues: missing " + name);
            }
            JsonNode n = MAPPER.readTree(in);
            if (n == null || !n.isObject()) {
                throw new IllegalArgumentException("catalogues: " + name + ": the root must be a JSON object");
            }
            return n;
        } catch (IOException e) {
            throw new UncheckedIOException("catalogues: cannot read " + name, e);
        }
    }

    /** Validates one file's JSON. */
    static Catalogue read(String file, JsonNode root) {
        String name = root.path("catalogue").asText("");
        String where = "catalogues: " + file + ": ";
        if (!file.equals(name + ".json")) {
            throw new IllegalArgumentException(where + "'catalogue' must be the file name without .json, got '" + name + "'");
        }
        String kind = root.path("kind").asText("");
        if (!KINDS.contains(kind)) {
            throw new IllegalArgumentException(where + "unknown kind '" + kind + "'");
        }
        String version = root.path("version").asText("");
        if (version.isBlank()) {
            throw new IllegalArgumentException(where + "needs a version");
        }
        Source fileSource = source(root.path("source"), null);
        List<Row> rows = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        int i = 0;
        for (JsonNode r : root.path("rows")) {
            String id = r.path("id").asText("");
            String at = where + "row " + (id.isBlank() ? "#" + i : "'" + id + "'") + ": ";
            i++;
            if (id.isBlank()) {
                throw new IllegalArgumentException(at + "has no id");
            }
            if (!ids.add(id)) {
                throw new IllegalArgumentException(at + "duplicate id");
            }
            rows.add(row(name, kind, id, r, fileSource, at));
        }
        if (rows.isEmpty()) {
            throw new IllegalArgumentException(where + "has no rows");
        }
        return new Catalogue(name, kind, version, fileSource, rows);
    }

    private static Row row(String file, String kind, String id, JsonNode r, Source fileSource, String at) {
        List<String> forms = strings(r.path("forms"));
        if (forms.isEmpty() || forms.stream().anyMatch(String::isBlank)) {
            throw new IllegalArgumentException(at + "needs at least one non-empty form");
        }
        String example = r.path("example").asText("");
        if (example.isBlank()) {
            throw new IllegalArgumentException(at + "needs an example");
        }
        Category category = category(r.path("category").asText(""), at + "category");
        Action action;
        try {
            action = Action.valueOf(r.path("action").asText(""));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(at + "unknown action '" + r.path("action").asText("") + "'");
        }
        if (category == Category.HEALTHY && action != Action.NONE) {
            throw new IllegalArgumentException(at + "a HEALTHY row has action NONE");
        }
        Map<String, Category> contexts = new LinkedHashMap<>();
        r.path("contexts").fields().forEachRemaining(e -> contexts.put(TextContext.canonical(e.getKey()),
                category(e.getValue().asText(""), at + "contexts." + e.getKey())));
        JsonNode ex = r.path("explanation");
        Localized explanation = new Localized(ex.path("en").asText(""), ex.path("zh").asText(""));
        if (explanation.en().isBlank() || explanation.zh().isBlank()) {
            throw new IllegalArgumentException(at + "needs explanation.en and explanation.zh");
        }
        if (!TextRulesOfCatalogues.hasCjk(explanation.zh())) {
            throw new IllegalArgumentException(at + "explanation.zh must be Chinese");
        }
        Source source = r.has("source") ? source(r.path("source"), fileSource) : fileSource;
        if (source == null || source.url().isBlank() || source.version().isBlank()) {
            throw new IllegalArgumentException(at + "needs a source with url and version (its own or the file's)");
        }
        String signal = null;
        if ("dcgm-field".equals(kind)) {
            signal = r.path("signal").asText("");
            if (!SIGNAL.matcher(signal).matches()) {
                throw new IllegalArgumentException(at + "a dcgm-field row needs a signal (counter-increase, nonzero, "
                        + "bitmask or gauge-above:<n>), got '" + signal + "'");
            }
        }
        String role = r.path("role").asText("cause");
        if (!"cause".equals(role) && !"symptom".equals(role)) {
            throw new IllegalArgumentException(at + "role is 'cause' or 'symptom', got '" + role + "'");
        }
        return new Row(file, kind, id, r.path("code").asText(""), strings(r.path("names")), forms, example, category,
                action, contexts, explanation, source, signal, "symptom".equals(role));
    }

    private static Category category(String value, String at) {
        try {
            return Category.valueOf(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(at + ": unknown category '" + value + "'");
        }
    }

    private static Source source(JsonNode n, Source fallback) {
        if (n == null || !n.isObject()) {
            return fallback;
        }
        String title = n.path("title").asText(fallback == null ? "" : fallback.title());
        return new Source(title, n.path("url").asText(""), n.path("version").asText(""));
    }

    private static List<String> strings(JsonNode n) {
        List<String> out = new ArrayList<>();
        for (JsonNode s : n) {
            out.add(s.asText());
        }
        return out;
    }

    /** These catalogues and {@code more} (e.g. a site's own files); a file name may occur only once. */
    public ReferenceCatalogues plus(ReferenceCatalogues more) {
        List<Catalogue> all = new ArrayList<>(catalogues);
        Set<String> names = new HashSet<>();
        catalogues.forEach(c -> names.add(c.name()));
        for (Catalogue c : more.catalogues) {
            if (!names.add(c.name())) {
                throw new IllegalArgumentException("catalogues: " + c.name() + ".json is loaded twice");
            }
            all.add(c);
        }
        return new ReferenceCatalogues(all);
    }

    public List<Catalogue> catalogues() {
        return catalogues;
    }

    /** Every row of every file, in file order. */
    public List<Row> rows() {
        List<Row> out = new ArrayList<>();
        catalogues.forEach(c -> out.addAll(c.rows()));
        return out;
    }

    /** Rows of one kind. */
    public List<Row> rows(String kind) {
        List<Row> out = new ArrayList<>();
        for (Catalogue c : catalogues) {
            if (c.kind().equals(kind)) {
                out.addAll(c.rows());
            }
        }
        return out;
    }

    /** Short description for logs: {@code linux-errno v1 (133 rows), ...}. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (Catalogue c : catalogues) {
            sb.append(sb.isEmpty() ? "" : ", ").append(c.name()).append(" v").append(c.version())
                    .append(" (").append(c.rows().size()).append(" rows)");
        }
        return sb.toString();
    }

    /** The one text check the loader needs. */
    private static final class TextRulesOfCatalogues {
        static boolean hasCjk(String s) {
            return s.codePoints().anyMatch(c -> Character.UnicodeScript.of(c) == Character.UnicodeScript.HAN);
        }
    }
}
