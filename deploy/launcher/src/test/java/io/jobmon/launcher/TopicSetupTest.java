package io.jobmon.launcher;

import io.jobmon.testsupport.EmbeddedKafka;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The topic setup of ./jobmon up against a real broker: a state folder from before keeps its topics, grown. */
class TopicSetupTest {

    @Test
    void anExistingTopicWithFewerPartitionsGetsThoseTheFileAsksForAndNeverFewer() throws Exception {
        String topic = "jobmon.setup-test." + UUID.randomUUID();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, EmbeddedKafka.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            // As in a state folder from before: the topic is in the broker's metadata when the setup lists topics.
            settle(() -> admin.listTopics().names().get(30, TimeUnit.SECONDS).contains(topic));

            KafkaSetupMain.ensureTopics(admin, List.of(new KafkaSetupMain.TopicSpec(topic, 4, Map.of())));
            settle(() -> partitions(admin, topic) == 4);
            assertEquals(4, partitions(admin, topic));

            KafkaSetupMain.ensureTopics(admin, List.of(new KafkaSetupMain.TopicSpec(topic, 2, Map.of())));
            assertEquals(4, partitions(admin, topic), "a topic never loses partitions");
        }
    }

    @Test
    void aMissingTopicIsCreatedWithItsPartitions() throws Exception {
        String topic = "jobmon.setup-test." + UUID.randomUUID();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, EmbeddedKafka.bootstrapServers()))) {
            KafkaSetupMain.ensureTopics(admin, List.of(new KafkaSetupMain.TopicSpec(topic, 4, Map.of())));
            settle(() -> partitions(admin, topic) == 4);
            assertEquals(4, partitions(admin, topic));
        }
    }

    interface Check {
        boolean holds() throws Exception;
    }

    /** Gives the broker's metadata a moment to show a change (at most 10 s); the assertions that follow judge. */
    private static void settle(Check check) throws Exception {
        for (int i = 0; i < 50 && !check.holds(); i++) {
            Thread.sleep(200);
        }
    }

    private static int partitions(Admin admin, String topic) throws Exception {
        return admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic).partitions().size();
    }
}
