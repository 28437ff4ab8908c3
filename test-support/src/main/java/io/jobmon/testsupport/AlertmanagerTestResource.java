package io.jobmon.testsupport;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/** Gives a {@code @QuarkusTest} a real Alertmanager ({@link Alertmanager}) at {@code jobmon.alerts.alertmanager-url}. */
public class AlertmanagerTestResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        return Map.of("jobmon.alerts.alertmanager-url", Alertmanager.shared().url());
    }

    @Override
    public void stop() {
        // shared by every test of the JVM; stopped by a shutdown hook
    }
}
