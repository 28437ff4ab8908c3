package io.jobmon.chart;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every metric a rule expression or a dashboard query names is in deploy/monitoring/metrics-catalogue.txt (or is
 * recorded by a rule), so that nothing on a dashboard or in an alert waits for a metric nobody exposes. The
 * dashboards' variables are defined where they are used.
 */
class MetricsCatalogueTest {

    static final Path CATALOGUE = Repo.MONITORING.resolve("metrics-catalogue.txt");
    static final Path DASHBOARDS = Repo.MONITORING.resolve("dashboards");
    private static final Set<String> TYPES = Set.of("counter", "gauge", "histogram", "summary");
    private static final Set<String> SOURCES = Set.of("gateway", "job-service", "event-ingest-service", "metrics-service",
            "log-service", "diagnosis-service", "every-service", "consumers", "dcgm-exporter", "node-exporter",
            "kube-state-metrics", "kubelet", "prometheus");
    private static final Set<String> STATES = Set.of("exists", "planned", "counters-csv");
    private static final Pattern GRAFANA_VARIABLE = Pattern.compile("\\$\\{?(\\w+)");

    record Entry(String name, String type, String source, String state) {
        /** The series names PromQL may use for it (Micrometer adds _max to timers and distribution summaries). */
        Set<String> series() {
            return switch (type) {
                case "histogram" -> Set.of(name + "_bucket", name + "_count", name + "_sum", name + "_max");
                case "summary" -> Set.of(name, name + "_count", name + "_sum", name + "_max");
                default -> Set.of(name);
            };
        }
    }

    static List<Entry> catalogue() throws IOException {
        List<Entry> entries = new ArrayList<>();
        for (String line : Files.readAllLines(CATALOGUE)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.trim().split("\\s+", 5);
            assertTrue(f.length == 5, "name type source state description: " + line);
            assertTrue(TYPES.contains(f[1]), "type of " + line);
            assertTrue(SOURCES.contains(f[2]), "source of " + line);
            assertTrue(STATES.contains(f[3]), "state of " + line);
            entries.add(new Entry(f[0], f[1], f[2], f[3]));
        }
        return entries;
    }

    static Set<String> allowedNames() throws IOException {
        Set<String> allowed = new HashSet<>();
        for (Entry e : catalogue()) {
            allowed.addAll(e.series());
        }
        RuleFiles.rules().stream().filter(r -> r.record() != null).forEach(r -> allowed.add(r.record()));
        return allowed;
    }

    @Test
    void theCatalogueNamesEachMetricOnce() throws IOException {
        List<Entry> entries = catalogue();
        assertEquals(entries.size(), entries.stream().map(Entry::name).distinct().count(), "a name listed twice");
        assertTrue(entries.size() > 40, "entries: " + entries.size());
    }

    @Test
    void everyRuleExpressionNamesOnlyCataloguedMetrics() throws IOException {
        Set<String> allowed = allowedNames();
        Map<String, Set<String>> unknown = new TreeMap<>();
        for (RuleFiles.Rule rule : RuleFiles.rules()) {
            Set<String> names = PromqlNames.of(rule.expr());
            assertTrue(!names.isEmpty(), rule.alert() + ": no metric found in " + rule.expr());
            names.stream().filter(n -> !allowed.contains(n)).forEach(n ->
                    unknown.computeIfAbsent(n, k -> new TreeSet<>()).add(rule.alert() != null ? rule.alert() : rule.record()));
        }
        assertEquals(Map.of(), unknown, "metrics not in " + CATALOGUE.getFileName());
    }

    @Test
    void everyDashboardQueryNamesOnlyCataloguedMetricsAndDefinedVariables() throws IOException {
        Set<String> allowed = allowedNames();
        Map<String, Set<String>> problems = new TreeMap<>();
        List<Path> files = dashboards();
        assertEquals(5, files.size(), "dashboards: " + files);
        for (Path file : files) {
            JsonNode dashboard = new ObjectMapper().readTree(file.toFile());
            Set<String> variables = new HashSet<>();
            dashboard.path("templating").path("list").forEach(v -> variables.add(v.path("name").asText()));
            List<String> queries = new ArrayList<>();
            dashboard.path("templating").path("list").forEach(v -> {
                JsonNode q = v.path("query");
                if (v.path("type").asText().equals("query")) {
                    queries.add(q.isObject() ? q.path("query").asText() : q.asText());
                }
            });
            panels(dashboard.path("panels")).forEach(p -> p.path("targets").forEach(t -> queries.add(t.path("expr").asText())));
            assertTrue(queries.size() > 5, file + ": queries " + queries.size());
            for (String query : queries) {
                Set<String> names = PromqlNames.of(query);
                if (names.isEmpty()) {
                    problems.computeIfAbsent(file.getFileName() + ": no metric in", k -> new TreeSet<>()).add(query);
                }
                names.stream().filter(n -> !allowed.contains(n)).forEach(n ->
                        problems.computeIfAbsent(file.getFileName() + ": metric not catalogued", k -> new TreeSet<>()).add(n));
                Matcher m = GRAFANA_VARIABLE.matcher(query);
                while (m.find()) {
                    if (!m.group(1).startsWith("__") && !variables.contains(m.group(1))) {
                        problems.computeIfAbsent(file.getFileName() + ": variable not defined", k -> new TreeSet<>())
                                .add(m.group(1));
                    }
                }
            }
        }
        assertEquals(Map.of(), problems);
    }

    @Test
    void theDashboardsHaveDistinctIdsAndTheDrillDownTakesAJob() throws IOException {
        Set<String> uids = new HashSet<>();
        for (Path file : dashboards()) {
            JsonNode d = new ObjectMapper().readTree(file.toFile());
            assertTrue(uids.add(d.path("uid").asText()), file + ": uid " + d.path("uid"));
            assertTrue(d.path("title").asText().startsWith("jobmon / "), file + ": title");
        }
        JsonNode drill = new ObjectMapper().readTree(DASHBOARDS.resolve("job-drilldown.json").toFile());
        List<String> names = new ArrayList<>();
        drill.path("templating").path("list").forEach(v -> names.add(v.path("name").asText()));
        assertEquals(List.of("datasource", "cluster", "job_id"), names);
    }

    static List<Path> dashboards() throws IOException {
        try (Stream<Path> files = Files.list(DASHBOARDS)) {
            return files.filter(f -> f.toString().endsWith(".json")).sorted().toList();
        }
    }

    private static List<JsonNode> panels(JsonNode list) {
        List<JsonNode> all = new ArrayList<>();
        list.forEach(p -> {
            all.add(p);
            all.addAll(panels(p.path("panels")));
        });
        return all;
    }
}
