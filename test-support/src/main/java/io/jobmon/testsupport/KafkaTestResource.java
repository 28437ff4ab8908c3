package io.jobmon.testsupport;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/** Gives a {@code @QuarkusTest} a real Kafka broker ({@link EmbeddedKafka}). */
public class KafkaTestResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        return Map.of("kafka.bootstrap.servers", EmbeddedKafka.bootstrapServers());
    }

    @Override
    public void stop() {
        // shared by every test of the JVM; stopped by a shutdown hook
    }
}
