package io.jobmon.e2e;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/** What the broker says of the services' consumer groups: who holds which partitions, what they committed, their lag. */
final class ConsumerGroups {

    private final Admin admin;

    ConsumerGroups(Admin admin) {
        this.admin = admin;
    }

    private ConsumerGroupDescription group(String id) {
        try {
            return admin.describeConsumerGroups(List.of(id)).all().get(10, TimeUnit.SECONDS).get(id);
        } catch (Exception e) {
            throw new AssertionError("describe group " + id, e);
        }
    }

    /** Per topic a group reads: how many partitions each member reading it holds. */
    Map<String, List<Integer>> holders(String group) {
        Map<String, List<Integer>> out = new HashMap<>();
        for (MemberDescription m : group(group).members()) {
            Map<String, Integer> held = new HashMap<>();
            m.assignment().topicPartitions().forEach(tp -> held.merge(tp.topic(), 1, Integer::sum));
            held.forEach((topic, n) -> out.computeIfAbsent(topic, t -> new ArrayList<>()).add(n));
        }
        // A member that reads a topic but holds none of its partitions: a replica idling.
        committed(group).keySet().forEach(tp -> out.computeIfAbsent(tp.topic(), t -> new ArrayList<>()));
        for (MemberDescription m : group(group).members()) {
            if (m.assignment().topicPartitions().isEmpty()) {
                out.computeIfAbsent("(nothing)", t -> new ArrayList<>()).add(0);
            }
        }
        return out;
    }

    int partitions(String topic) {
        try {
            return admin.describeTopics(List.of(topic)).allTopicNames().get(10, TimeUnit.SECONDS).get(topic).partitions().size();
        } catch (Exception e) {
            throw new AssertionError("describe topic " + topic, e);
        }
    }

    String describe(List<String> groups) {
        StringBuilder b = new StringBuilder();
        for (String g : groups) {
            b.append('\n').append(g).append(':');
            group(g).members().forEach(m -> b.append(' ').append(m.host()).append(m.assignment().topicPartitions()));
        }
        return b.toString();
    }

    Map<TopicPartition, OffsetAndMetadata> committed(String group) {
        try {
            Map<TopicPartition, OffsetAndMetadata> out = new HashMap<>(admin.listConsumerGroupOffsets(group)
                    .partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS));
            out.values().removeIf(Objects::isNull);
            return out;
        } catch (Exception e) {
            throw new AssertionError("offsets of group " + group, e);
        }
    }

    /** The end offsets, now, of every partition a group has committed on. */
    Map<TopicPartition, Long> endOffsets(List<String> groups) throws Exception {
        Map<TopicPartition, OffsetSpec> ask = new HashMap<>();
        for (String g : groups) {
            committed(g).keySet().forEach(tp -> ask.put(tp, OffsetSpec.latest()));
        }
        Map<TopicPartition, Long> out = new HashMap<>();
        admin.listOffsets(ask).all().get(10, TimeUnit.SECONDS).forEach((tp, info) -> out.put(tp, info.offset()));
        return out;
    }

    String lagReport(List<String> groups, Map<TopicPartition, Long> ends) {
        StringBuilder b = new StringBuilder();
        for (String g : groups) {
            committed(g).forEach((tp, o) -> {
                long lag = ends.getOrDefault(tp, 0L) - o.offset();
                if (lag > 0) {
                    b.append('\n').append(g).append(' ').append(tp).append(" lag ").append(lag);
                }
            });
        }
        return b.toString();
    }
}
