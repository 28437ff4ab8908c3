package io.jobmon.launcher;

import io.jobmon.contracts.events.Topics;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** deploy/local/topics.txt, which ./jobmon up creates, names every topic of the suite and its dead-letter topic. */
class TopicsFileTest {

    private static final Path TOPICS_FILE = Path.of("../local/topics.txt");

    @Test
    void everyTopicOfTheSuiteAndItsDeadLetterTopicIsCreated() throws Exception {
        Map<String, KafkaSetupMain.TopicSpec> file = KafkaSetupMain.parse(TOPICS_FILE).stream()
                .collect(Collectors.toMap(KafkaSetupMain.TopicSpec::name, Function.identity()));
        List<String> suite = new ArrayList<>();
        for (Field f : Topics.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class) {
                suite.add((String) f.get(null));
            }
        }
        assertTrue(suite.size() >= 7, "topics found in contracts: " + suite);
        for (String topic : suite) {
            assertTrue(file.containsKey(topic), topic + " missing from " + TOPICS_FILE);
            assertTrue(file.containsKey(Topics.dlq(topic)), Topics.dlq(topic) + " missing from " + TOPICS_FILE);
        }
        assertEquals(2 * suite.size(), file.size(), "topics file names topics the suite does not have: " + file.keySet());
    }

    @Test
    void jobChangesIsCompactedAndTheOthersAreNot() throws Exception {
        for (KafkaSetupMain.TopicSpec t : KafkaSetupMain.parse(TOPICS_FILE)) {
            String expected = t.name().equals(Topics.JOB_CHANGES) ? "compact" : null;
            assertEquals(expected, t.configs().get("cleanup.policy"), t.name());
        }
    }

    @Test
    void everyConsumedTopicHasPartitionsForTwoReplicasOfItsConsumers() throws Exception {
        for (KafkaSetupMain.TopicSpec t : KafkaSetupMain.parse(TOPICS_FILE)) {
            if (!t.name().endsWith(".dlq")) {
                assertTrue(t.partitions() >= 2, t.name() + " has " + t.partitions() + " partition(s): a second replica would idle");
            }
        }
    }
}
