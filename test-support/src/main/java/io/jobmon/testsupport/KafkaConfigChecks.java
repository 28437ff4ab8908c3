package io.jobmon.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/**
 * The Kafka settings a service runs with, read from its effective configuration (contracts' shared
 * {@code META-INF/microprofile-config.properties} under the service's {@code application.properties}): the
 * connector settings every service shares, and the {@code job-changes} channel, the same everywhere but for the
 * consumer group (or switched off where the service does not read it). A service's {@code KafkaConfigTest}
 * extends this in its {@code @QuarkusTest} with its test resources.
 */
public abstract class KafkaConfigChecks {

    private static final String CHANNEL = "mp.messaging.incoming.job-changes.";
    private static final String EXACT = "io.jobmon.contracts.messaging.ExactString";

    private final String jobChangesGroup;

    /** @param jobChangesGroup the service's consumer group of jobmon.job.changes, null if it does not read it */
    protected KafkaConfigChecks(String jobChangesGroup) {
        this.jobChangesGroup = jobChangesGroup;
    }

    @Test
    void theSharedConnectorSettingsApply() {
        Config config = ConfigProvider.getConfig();
        assertEquals(Optional.of("0"), config.getOptionalValue(
                "mp.messaging.connector.smallrye-kafka.throttled.unprocessed-record-max-age.ms", String.class));
        assertEquals(Optional.of("false"), config.getOptionalValue(
                "mp.messaging.connector.smallrye-kafka.tracing-enabled", String.class));
        assertEquals(Optional.of("1s"), config.getOptionalValue("jobmon.consumers.backoff.max", String.class));
    }

    @Test
    void theJobChangesChannelIsTheSharedOneWithTheServicesGroup() {
        Config config = ConfigProvider.getConfig();
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("connector", "smallrye-kafka");
        expected.put("topic", "jobmon.job.changes");
        expected.put("auto.offset.reset", "earliest");
        expected.put("failure-strategy", "dead-letter-queue");
        expected.put("dead-letter-queue.topic", "jobmon.job.changes.dlq");
        expected.put("key.deserializer", EXACT + "Deserializer");
        expected.put("dead-letter-queue.key.serializer", EXACT + "Serializer");
        expected.put("value.deserializer", EXACT + "Deserializer");
        expected.put("dead-letter-queue.value.serializer", EXACT + "Serializer");
        if (jobChangesGroup != null) {
            expected.put("group.id", jobChangesGroup);
        } else {
            expected.put("enabled", "false");
        }
        // Quarkus adds defaults of its own to a channel (graceful-shutdown in tests): only these keys are compared.
        Map<String, String> actual = new LinkedHashMap<>();
        for (String key : expected.keySet()) {
            config.getOptionalValue(CHANNEL + key, String.class).ifPresent(v -> actual.put(key, v));
        }
        assertEquals(new TreeMap<>(expected), new TreeMap<>(actual));
    }
}
