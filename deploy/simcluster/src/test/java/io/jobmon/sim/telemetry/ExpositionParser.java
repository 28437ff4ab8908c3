package io.jobmon.sim.telemetry;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A strict reader of the Prometheus text format 0.0.4, for tests: HELP/TYPE at most once per family and before its
 * samples, a family's samples together, valid names and label pairs, no duplicate series, numeric values.
 */
final class ExpositionParser {

    record Sample(String name, Map<String, String> labels, double value, String raw, Long timestamp) {
    }

    record Family(String name, String type, String help, List<Sample> samples) {
    }

    private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)\\})? (\\S+)(?: (-?\\d+))?$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"(,|$)");
    private static final Set<String> TYPES = Set.of("counter", "gauge", "histogram", "summary", "untyped");

    private ExpositionParser() {
    }

    static Map<String, Family> parse(String text) {
        Map<String, Family> families = new LinkedHashMap<>();
        Set<String> series = new HashSet<>();
        Set<String> closed = new HashSet<>();
        String current = null;
        for (String line : text.split("\n", -1)) {
            if (line.isEmpty()) {
                continue;
            }
            if (line.startsWith("# HELP ") || line.startsWith("# TYPE ")) {
                String[] parts = line.substring(7).split(" ", 2);
                String name = parts[0];
                require(NAME.matcher(name).matches(), "bad metric name in " + line);
                Family f = families.computeIfAbsent(name, n -> new Family(n, null, null, new ArrayList<>()));
                require(f.samples().isEmpty(), "HELP/TYPE after samples: " + line);
                if (line.startsWith("# TYPE ")) {
                    require(f.type() == null && TYPES.contains(parts[1]), "bad or second TYPE: " + line);
                    families.put(name, new Family(name, parts[1], f.help(), f.samples()));
                } else {
                    require(f.help() == null, "second HELP: " + line);
                    families.put(name, new Family(name, f.type(), parts.length > 1 ? parts[1] : "", f.samples()));
                }
                if (current != null && !current.equals(name)) {
                    closed.add(current);
                }
                current = name;
                continue;
            }
            if (line.startsWith("#")) {
                continue;
            }
            Matcher m = SAMPLE.matcher(line);
            require(m.matches(), "not a sample line: " + line);
            String name = m.group(1);
            require(!closed.contains(name), "samples of " + name + " are not together");
            if (current != null && !current.equals(name)) {
                closed.add(current);
            }
            current = name;
            Map<String, String> labels = new LinkedHashMap<>();
            if (m.group(3) != null && !m.group(3).isEmpty()) {
                Matcher l = LABEL.matcher(m.group(3));
                int at = 0;
                while (l.find() && l.start() == at) {
                    require(labels.put(l.group(1), l.group(2).replace("\\\"", "\"").replace("\\\\", "\\")) == null,
                            "label twice: " + line);
                    at = l.end();
                }
                require(at == m.group(3).length(), "bad labels: " + line);
            }
            require(series.add(name + labels), "duplicate series: " + line);
            double value = switch (m.group(4)) {
                case "NaN" -> Double.NaN;
                case "+Inf" -> Double.POSITIVE_INFINITY;
                case "-Inf" -> Double.NEGATIVE_INFINITY;
                default -> Double.parseDouble(m.group(4));
            };
            Family f = families.computeIfAbsent(name, n -> new Family(n, "untyped", null, new ArrayList<>()));
            f.samples().add(new Sample(name, labels, value, m.group(4), m.group(5) == null ? null : Long.valueOf(m.group(5))));
        }
        return families;
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }
}
