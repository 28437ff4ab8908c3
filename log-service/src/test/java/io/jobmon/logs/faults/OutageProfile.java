package io.jobmon.logs.faults;

import io.jobmon.testsupport.OutageTestResource;
import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.List;
import java.util.Map;

/** log-service with its PostgreSQL and broker behind links the test can cut; Kafka over SASL/PLAIN. */
public class OutageProfile implements QuarkusTestProfile {

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(OutageTestResource.class));
    }

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("jobmon.consumers.backoff.max", "500ms");
    }
}
