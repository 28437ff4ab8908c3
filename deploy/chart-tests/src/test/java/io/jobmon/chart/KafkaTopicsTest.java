package io.jobmon.chart;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.jobmon.contracts.events.Topics;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** With Strimzi on, every topic of contracts' Topics and its .dlq is a KafkaTopic of the chart's Kafka cluster. */
class KafkaTopicsTest {

    @Test
    void everyTopicTheCodeUsesAndItsDeadLetterTopicIsDeclared() throws Exception {
        Map<String, GenericKubernetesResource> declared = topics(Rendered.defaults());
        List<String> suite = suiteTopics();
        assertTrue(suite.size() >= 7, "topics found in contracts: " + suite);
        for (String topic : suite) {
            assertTrue(declared.containsKey(topic), topic + " is not a KafkaTopic; declared: " + declared.keySet());
            assertTrue(declared.containsKey(Topics.dlq(topic)), Topics.dlq(topic) + " is not a KafkaTopic");
        }
        assertEquals(2 * suite.size(), declared.size(), "KafkaTopics the code does not use: " + declared.keySet());
    }

    @Test
    void jobChangesIsCompactedAndEveryOtherTopicExpires() {
        for (var e : topics(Rendered.defaults()).entrySet()) {
            Map<String, Object> config = e.getValue().get("spec", "config");
            if (e.getKey().equals(Topics.JOB_CHANGES)) {
                assertEquals("compact", config.get("cleanup.policy"), e.getKey());
                assertTrue(!config.containsKey("retention.ms"), e.getKey() + ": snapshots are kept until replaced");
            } else {
                assertEquals("delete", config.get("cleanup.policy"), e.getKey());
                assertTrue(((Number) config.get("retention.ms")).longValue() >= 24 * 3600_000L, e.getKey());
            }
        }
    }

    @Test
    void everyConsumedTopicHasAPartitionPerReplicaOfItsConsumers() {
        for (var e : topics(Rendered.defaults()).entrySet()) {
            int partitions = ((Number) e.getValue().get("spec", "partitions")).intValue();
            int replicas = ((Number) e.getValue().get("spec", "replicas")).intValue();
            assertTrue(partitions >= 2, e.getKey() + ": two consumers of a group need two partitions");
            assertTrue(replicas >= 3, e.getKey() + ": replicated on three brokers");
        }
    }

    @Test
    void theTopicsBelongToTheKafkaClusterTheServicesUse() {
        Rendered r = Rendered.defaults();
        GenericKubernetesResource kafka = r.custom("Kafka").get(0);
        String cluster = kafka.getMetadata().getName();
        assertEquals(1, r.custom("KafkaNodePool").size());
        assertEquals(cluster, r.custom("KafkaNodePool").get(0).getMetadata().getLabels().get("strimzi.io/cluster"));
        for (GenericKubernetesResource t : topics(r).values()) {
            assertEquals(cluster, t.getMetadata().getLabels().get("strimzi.io/cluster"), t.getMetadata().getName());
        }
        for (String service : Repo.SERVICES) {
            if (!service.equals("gateway")) {
                assertEquals(cluster + "-kafka-bootstrap:9092", r.configMap(Rendered.objectName(service)).getData()
                        .get("JOBMON_KAFKA_BOOTSTRAP"), service);
            }
        }
    }

    @Test
    void withTheirOwnKafkaNoStrimziResourceIsRendered() {
        Rendered r = Rendered.onPrem();
        assertEquals(List.of(), r.custom("Kafka"));
        assertEquals(List.of(), r.custom("KafkaNodePool"));
        assertEquals(List.of(), r.custom("KafkaTopic"));
        assertTrue(r.configMap("jobmon-job-service").getData().get("JOBMON_KAFKA_BOOTSTRAP").startsWith("kafka-0.kafka.infra"));
    }

    static Map<String, GenericKubernetesResource> topics(Rendered r) {
        return r.custom("KafkaTopic").stream()
                .collect(Collectors.toMap(t -> t.<String>get("spec", "topicName"), Function.identity()));
    }

    static List<String> suiteTopics() throws IllegalAccessException {
        List<String> topics = new ArrayList<>();
        for (Field f : Topics.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class) {
                topics.add((String) f.get(null));
            }
        }
        return topics;
    }
}
