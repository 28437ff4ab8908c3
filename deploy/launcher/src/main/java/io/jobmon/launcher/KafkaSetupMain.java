package io.jobmon.launcher;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.TopicExistsException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Waits until a Kafka broker answers a metadata call, then creates the suite's topics idempotently.
 *
 * <p>Usage: {@code KafkaSetupMain [--check-only] <bootstrap> <topics-file> [timeout-seconds]}. With
 * {@code --check-only} (an external cluster) it only waits for the metadata call. Each non-blank,
 * non-comment line of the topics file is {@code name [partitions=N] [config=value ...]}. Existing
 * topics are kept; their listed configs are (re)applied, so a topic a service auto-created with the
 * wrong cleanup policy is corrected. Exit code 0 when the broker is ready and every topic exists.
 */
public final class KafkaSetupMain {

    private KafkaSetupMain() {
    }

    record TopicSpec(String name, int partitions, Map<String, String> configs) {
    }

    public static void main(String[] args) throws Exception {
        boolean checkOnly = args.length > 0 && args[0].equals("--check-only");
        if (checkOnly) {
            args = java.util.Arrays.copyOfRange(args, 1, args.length);
        }
        if (args.length < 2) {
            System.err.println("usage: KafkaSetupMain [--check-only] <bootstrap> <topics-file> [timeout-seconds]");
            System.exit(2);
        }
        String bootstrap = args[0];
        List<TopicSpec> topics = parse(Path.of(args[1]));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(args.length > 2 ? Long.parseLong(args[2]) : 60);

        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "10000");
        props.put(AdminClientConfig.CLIENT_ID_CONFIG, "jobmon-local-setup");
        try (Admin admin = Admin.create(props)) {
            awaitBroker(admin, bootstrap, deadline);
            if (checkOnly) {
                System.out.println("kafka ready at " + bootstrap + " (topics not managed here)");
                return;
            }
            ensureTopics(admin, topics);
        }
        System.out.println("kafka ready at " + bootstrap + " with " + topics.size() + " jobmon topics");
    }

    private static void awaitBroker(Admin admin, String bootstrap, long deadline) throws InterruptedException {
        Exception last = null;
        while (System.nanoTime() < deadline) {
            try {
                int nodes = admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).size();
                if (nodes > 0) {
                    return;
                }
            } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
                last = e;
            }
            Thread.sleep(500);
        }
        System.err.println("kafka at " + bootstrap + " did not answer a metadata call in time: " + last);
        System.exit(1);
    }

    static void ensureTopics(Admin admin, List<TopicSpec> topics) throws Exception {
        Set<String> existing = admin.listTopics().names().get(10, TimeUnit.SECONDS);
        List<NewTopic> missing = new ArrayList<>();
        for (TopicSpec t : topics) {
            if (!existing.contains(t.name())) {
                missing.add(new NewTopic(t.name(), t.partitions(), (short) 1).configs(t.configs()));
            }
        }
        if (!missing.isEmpty()) {
            try {
                admin.createTopics(missing).all().get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw e;
                }
            }
            missing.forEach(t -> System.out.println("created topic " + t.name()));
        }
        growPartitions(admin, topics, existing);
        Map<ConfigResource, Collection<AlterConfigOp>> alter = new LinkedHashMap<>();
        for (TopicSpec t : topics) {
            if (existing.contains(t.name()) && !t.configs().isEmpty()) {
                List<AlterConfigOp> ops = new ArrayList<>();
                t.configs().forEach((k, v) -> ops.add(new AlterConfigOp(new ConfigEntry(k, v), AlterConfigOp.OpType.SET)));
                alter.put(new ConfigResource(ConfigResource.Type.TOPIC, t.name()), ops);
            }
        }
        if (!alter.isEmpty()) {
            admin.incrementalAlterConfigs(alter).all().get(30, TimeUnit.SECONDS);
        }
    }

    /**
     * Gives an existing topic the partitions the file asks for when it has fewer (a state folder from before the
     * topics had several partitions); never fewer. A keyed record may then land on another partition than its key's
     * older ones: acceptable locally, the services' state is versioned.
     */
    private static void growPartitions(Admin admin, List<TopicSpec> topics, Set<String> existing) throws Exception {
        List<String> names = topics.stream().map(TopicSpec::name).filter(existing::contains).toList();
        if (names.isEmpty()) {
            return;
        }
        Map<String, TopicDescription> described = admin.describeTopics(names).allTopicNames().get(30, TimeUnit.SECONDS);
        Map<String, NewPartitions> grow = new LinkedHashMap<>();
        for (TopicSpec t : topics) {
            TopicDescription d = described.get(t.name());
            if (d != null && d.partitions().size() < t.partitions()) {
                grow.put(t.name(), NewPartitions.increaseTo(t.partitions()));
            }
        }
        if (!grow.isEmpty()) {
            admin.createPartitions(grow).all().get(30, TimeUnit.SECONDS);
            grow.forEach((name, n) -> System.out.println("topic " + name + " now has " + n.totalCount() + " partitions"));
        }
    }

    static List<TopicSpec> parse(Path file) throws IOException {
        List<TopicSpec> specs = new ArrayList<>();
        for (String raw : Files.readAllLines(file)) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] parts = line.split("\\s+");
            int partitions = 1;
            Map<String, String> configs = new LinkedHashMap<>();
            for (int i = 1; i < parts.length; i++) {
                String[] kv = parts[i].split("=", 2);
                if (kv.length != 2) {
                    throw new IllegalArgumentException(file + ": bad setting '" + parts[i] + "' in: " + line);
                }
                if (kv[0].equals("partitions")) {
                    partitions = Integer.parseInt(kv[1]);
                } else {
                    configs.put(kv[0], kv[1]);
                }
            }
            specs.add(new TopicSpec(parts[0], partitions, configs));
        }
        return specs;
    }
}
