package io.jobmon.testsupport;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/**
 * Gives a {@code @QuarkusTest} of metrics-service a real engine and {@code jobmon.metrics.storage=prometheus}:
 * VictoriaMetrics, or Prometheus when the resource's {@code engine} argument says {@code prometheus}.
 */
public class MetricsEngineTestResource implements QuarkusTestResourceLifecycleManager {

    private MetricsEngine engine;
    private MetricsEngine.Kind kind = MetricsEngine.Kind.VICTORIA_METRICS;

    @Override
    public void init(Map<String, String> args) {
        if ("prometheus".equals(args.get("engine"))) {
            kind = MetricsEngine.Kind.PROMETHEUS;
        }
    }

    @Override
    public Map<String, String> start() {
        engine = MetricsEngine.start(kind);
        return Map.of("jobmon.metrics.storage", "prometheus", "jobmon.metrics.prometheus.url", engine.url());
    }

    @Override
    public void stop() {
        if (engine != null) {
            engine.close();
        }
    }
}
