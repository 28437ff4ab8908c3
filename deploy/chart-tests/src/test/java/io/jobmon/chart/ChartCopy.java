package io.jobmon.chart;

import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

/** A copy of the chart (symbolic links resolved) whose values.yaml is the chart's merged with another file, as helm merges them. */
final class ChartCopy {

    static Path withValues(Path overrides) throws IOException {
        Path copies = Files.createDirectories(Path.of("target/chart-copies"));
        Path target = Files.createTempDirectory(copies, "values-").resolve("jobmon");
        try (Stream<Path> files = Files.walk(Repo.CHART, FileVisitOption.FOLLOW_LINKS)) {
            files.forEach(source -> copy(source, target.resolve(Repo.CHART.relativize(source).toString())));
        }
        Yaml yaml = new Yaml();
        Map<String, Object> values = yaml.load(Files.readString(Repo.DEFAULT_VALUES));
        merge(values, yaml.load(Files.readString(overrides)));
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        Files.writeString(target.resolve("values.yaml"), new Yaml(options).dump(values));
        return target;
    }

    /** Maps merge key by key; anything else (lists included) is replaced: helm's rule for values files. */
    @SuppressWarnings("unchecked")
    static void merge(Map<String, Object> base, Map<String, Object> overrides) {
        overrides.forEach((key, value) -> {
            if (value instanceof Map<?, ?> m && base.get(key) instanceof Map<?, ?> b) {
                Map<String, Object> copy = new LinkedHashMap<>((Map<String, Object>) b);
                merge(copy, (Map<String, Object>) m);
                base.put(key, copy);
            } else {
                base.put(key, value);
            }
        });
    }

    private static void copy(Path source, Path target) {
        try {
            if (Files.isDirectory(source)) {
                Files.createDirectories(target);
            } else {
                Files.copy(source, target);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private ChartCopy() {
    }
}
