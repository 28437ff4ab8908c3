package io.jobmon.chart;

import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** deploy/monitoring/rules/*.rules.yml and their promtool tests, read as YAML. */
final class RuleFiles {

    static final Path RULES = Repo.MONITORING.resolve("rules");
    static final Path TESTS = Repo.MONITORING.resolve("tests");

    record Rule(Path file, String group, Map<String, Object> body) {
        String alert() {
            return (String) body.get("alert");
        }

        String record() {
            return (String) body.get("record");
        }

        String expr() {
            return (String) body.get("expr");
        }

        @SuppressWarnings("unchecked")
        Map<String, String> labels() {
            return (Map<String, String>) body.getOrDefault("labels", Map.of());
        }

        @SuppressWarnings("unchecked")
        Map<String, String> annotations() {
            return (Map<String, String>) body.getOrDefault("annotations", Map.of());
        }
    }

    static List<Path> ruleFiles() {
        return list(RULES, ".rules.yml");
    }

    static List<Path> testFiles() {
        return list(TESTS, ".test.yml");
    }

    @SuppressWarnings("unchecked")
    static List<Rule> rules() {
        List<Rule> rules = new ArrayList<>();
        for (Path file : ruleFiles()) {
            Map<String, Object> doc = load(file);
            for (Map<String, Object> group : (List<Map<String, Object>>) doc.get("groups")) {
                for (Map<String, Object> rule : (List<Map<String, Object>>) group.get("rules")) {
                    rules.add(new Rule(file, (String) group.get("name"), rule));
                }
            }
        }
        return rules;
    }

    static Map<String, Object> load(Path file) {
        try {
            return new Yaml().load(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Path> list(Path dir, String suffix) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(suffix)).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private RuleFiles() {
    }
}
