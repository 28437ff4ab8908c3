package io.jobmon.diagnosis.faults;

import io.jobmon.diagnosis.support.EvidenceServer;
import io.jobmon.testsupport.OutageTestResource;
import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.List;
import java.util.Map;

/** diagnosis-service with its PostgreSQL and broker behind links the test can cut; Kafka over SASL/PLAIN. */
public class OutageProfile implements QuarkusTestProfile {

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(OutageTestResource.class), new TestResourceEntry(EvidenceServer.class));
    }

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("jobmon.consumers.backoff.max", "500ms");
    }
}
