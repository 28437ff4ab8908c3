package io.jobmon.sim.telemetry;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** The counters file of the sim's dcgm-exporter ({@code dcgm-counters.csv}, dcgm-exporter's CSV format). */
public final class DcgmCounters {

    /** One line: field name, Prometheus type (gauge, counter, label), help. */
    public record Counter(String field, String type, String help) {
    }

    private static final List<Counter> ALL = load();

    private DcgmCounters() {
    }

    public static List<Counter> all() {
        return ALL;
    }

    /** The counter of this field, or null. */
    public static Counter of(String field) {
        return ALL.stream().filter(c -> c.field().equals(field)).findFirst().orElse(null);
    }

    private static List<Counter> load() {
        var in = DcgmCounters.class.getResourceAsStream("dcgm-counters.csv");
        if (in == null) {
            throw new IllegalStateException("dcgm-counters.csv missing from the classpath");
        }
        List<Counter> out = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null;) {
                if (line.isBlank() || line.trim().startsWith("#")) {
                    continue;
                }
                String[] parts = line.split(",", 3);
                out.add(new Counter(parts[0].trim(), parts[1].trim(), parts[2].trim()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return List.copyOf(out);
    }
}
