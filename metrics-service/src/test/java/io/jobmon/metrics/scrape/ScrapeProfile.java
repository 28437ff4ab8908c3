package io.jobmon.metrics.scrape;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.HashMap;
import java.util.Map;

/** Static targets on the {@link ExporterServer}; discovery of cluster {@code mock} on the mock API server. */
public class ScrapeProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        String base = "http://127.0.0.1:" + ExporterServer.port();
        Map<String, String> m = new HashMap<>();
        // The tests run scrape rounds and discovery themselves.
        m.put("jobmon.metrics.scrape.enabled", "false");
        m.put("jobmon.metrics.discovery.every", "1h");
        m.put("jobmon.metrics.scrape.targets.dcgm.url", base + "/dcgm");
        m.put("jobmon.metrics.scrape.targets.dcgm.node", "gpu-node-07");
        m.put("jobmon.metrics.scrape.targets.dcgm.cluster", "c1");
        m.put("jobmon.metrics.scrape.targets.dcgm.pool", "gpu-a100");
        m.put("jobmon.metrics.scrape.targets.node.url", base + "/node");
        m.put("jobmon.metrics.scrape.targets.node.job", "node-exporter");
        m.put("jobmon.metrics.scrape.targets.node.node", "gpu-node-07");
        m.put("jobmon.metrics.scrape.targets.om.url", base + "/om");
        m.put("jobmon.metrics.scrape.targets.broken.url", base + "/broken");
        m.put("jobmon.metrics.discovery.clusters.mock.namespace", "gpu-operator");
        m.put("jobmon.metrics.discovery.clusters.mock.pool-label", "jobmon.io/pool");
        return m;
    }
}
