package io.jobmon.chart;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where things are in the repository, from this module's directory (Maven runs the tests there). */
final class Repo {

    static final Path ROOT = Path.of("../..").toAbsolutePath().normalize();
    static final Path CHART = ROOT.resolve("deploy/helm/jobmon");
    static final Path MONITORING = ROOT.resolve("deploy/monitoring");
    static final Path DEFAULT_VALUES = CHART.resolve("values.yaml");
    static final Path ONPREM_VALUES = CHART.resolve("values-onprem.yaml");

    /** The six services, by module name (= component name in the chart). */
    static final java.util.List<String> SERVICES = java.util.List.of("gateway", "job-service", "event-ingest-service",
            "metrics-service", "log-service", "diagnosis-service");

    static {
        if (!Files.isDirectory(CHART)) {
            throw new IllegalStateException("run from deploy/chart-tests: no chart at " + CHART);
        }
    }

    private Repo() {
    }
}
