package io.jobmon.events.watch;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/** A watched cluster {@code mock} (namespace {@code train}) on the mock API server of {@code @WithKubernetesTestServer}. */
public class WatcherProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        // The election runs at startup and when a test asks (WatcherManager.elect), not on its own in between:
        // the tests stop and start the watcher themselves.
        return Map.of("jobmon.clusters.mock.type", "kubernetes", "jobmon.clusters.mock.region", "test-region",
                "jobmon.clusters.mock.namespace", "train", "jobmon.watch.lease-renew-every", "1h",
                "jobmon.watch.lease-duration", "2s");
    }
}
