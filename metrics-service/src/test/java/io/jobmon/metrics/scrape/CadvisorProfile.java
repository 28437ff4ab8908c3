package io.jobmon.metrics.scrape;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Two clusters on the mock API server: {@code mock} reaches each node's cAdvisor through the API server's node
 * proxy (the default), {@code direct} the kubelet's port directly (plain HTTP, as the sim serves it) with a
 * ServiceAccount token from a file.
 */
public class CadvisorProfile implements QuarkusTestProfile {

    static final String TOKEN = "eyJhbGciOiJSUzI1NiJ9.sa-token.sig";
    static final Path TOKEN_FILE;

    static {
        try {
            TOKEN_FILE = Files.createTempFile("jobmon-sa-token", "");
            Files.writeString(TOKEN_FILE, TOKEN + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public Map<String, String> getConfigOverrides() {
        Map<String, String> m = new HashMap<>();
        m.put("jobmon.metrics.scrape.enabled", "false");
        m.put("jobmon.metrics.discovery.every", "1h");
        m.put("jobmon.metrics.discovery.clusters.mock.pool-label", "sim.jobmon.io/pool");
        m.put("jobmon.metrics.discovery.clusters.direct.cadvisor", "kubelet");
        m.put("jobmon.metrics.discovery.clusters.direct.kubelet-scheme", "http");
        m.put("jobmon.metrics.discovery.clusters.direct.kubelet-token-file", TOKEN_FILE.toString());
        return m;
    }
}
