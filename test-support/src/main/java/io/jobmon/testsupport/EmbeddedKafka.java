package io.jobmon.testsupport;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.common.utils.Time;

/**
 * A real Kafka broker (KRaft, combined broker+controller) in the test JVM, started once and shared by every
 * test of the JVM; or the broker named by {@code JOBMON_TEST_KAFKA_BOOTSTRAP}.
 *
 * <p>The embedded broker has a second listener, {@code SASL} (SASL_PLAINTEXT, mechanism PLAIN, user
 * {@value #SASL_USER}), reached only through a {@link TcpProxy}: a service configured with {@link #saslConfig()}
 * proves that every client it builds takes the shared {@code kafka.*} security settings, and a test can cut that
 * link ({@link #saslLink()}) to take the broker away from that service while the broker runs on for the others.
 */
public final class EmbeddedKafka {

    public static final String ENV = "JOBMON_TEST_KAFKA_BOOTSTRAP";
    public static final String SASL_USER = "jobmon";
    public static final String SASL_PASSWORD = "jobmon-secret";
    private static String bootstrap;

    private EmbeddedKafka() {
    }

    public static synchronized String bootstrapServers() {
        if (bootstrap == null) {
            String external = System.getenv(ENV);
            bootstrap = external != null && !external.isBlank() ? external
                    : SharedLinks.once("jobmon.test.kafka.bootstrap", EmbeddedKafka::start);
        }
        return bootstrap;
    }

    /** The SASL listener's link (through which {@link #saslConfig()} connects); embedded broker only. */
    public static synchronized Link saslLink() {
        bootstrapServers();
        String port = System.getProperty(SASL_LINK);
        if (port == null) {
            throw new IllegalStateException("the SASL listener exists only on the embedded broker; unset " + ENV
                    + " to run the tests that need it");
        }
        return new Link(Integer.parseInt(port));
    }

    private static final String SASL_LINK = "jobmon.test.kafka.sasl-link";

    /** The {@code kafka.*} settings of a client that reaches the broker over SASL/PLAIN through the link. */
    public static Map<String, String> saslConfig() {
        Link link = saslLink();
        return Map.of("kafka.bootstrap.servers", "127.0.0.1:" + link.port(),
                "kafka.security.protocol", "SASL_PLAINTEXT",
                "kafka.sasl.mechanism", "PLAIN",
                "kafka.sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required username=\""
                        + SASL_USER + "\" password=\"" + SASL_PASSWORD + "\";");
    }

    private static String start() {
        try {
            int brokerPort = freePort();
            int controllerPort = freePort();
            int saslPort = freePort();
            TcpProxy saslLink = new TcpProxy("127.0.0.1", saslPort);
            System.setProperty(SASL_LINK, Integer.toString(saslLink.port()));
            Path dir = Files.createTempDirectory("jobmon-kafka-");
            Properties props = new Properties();
            props.put("process.roles", "broker,controller");
            props.put("node.id", "1");
            props.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
            props.put("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort
                    + ",SASL://127.0.0.1:" + saslPort);
            props.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",SASL://127.0.0.1:"
                    + saslLink.port());
            props.put("controller.listener.names", "CONTROLLER");
            props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,SASL:SASL_PLAINTEXT");
            props.put("listener.name.sasl.sasl.enabled.mechanisms", "PLAIN");
            props.put("listener.name.sasl.plain.sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule"
                    + " required username=\"" + SASL_USER + "\" password=\"" + SASL_PASSWORD + "\" user_" + SASL_USER
                    + "=\"" + SASL_PASSWORD + "\";");
            props.put("inter.broker.listener.name", "PLAINTEXT");
            props.put("log.dirs", dir.resolve("data").toString());
            props.put("num.partitions", "1");
            props.put("offsets.topic.replication.factor", "1");
            props.put("offsets.topic.num.partitions", "1");
            props.put("transaction.state.log.replication.factor", "1");
            props.put("transaction.state.log.min.isr", "1");
            props.put("share.coordinator.state.topic.replication.factor", "1");
            props.put("share.coordinator.state.topic.min.isr", "1");
            props.put("group.initial.rebalance.delay.ms", "0");
            props.put("auto.create.topics.enable", "true");
            Path config = dir.resolve("server.properties");
            try (var out = Files.newOutputStream(config)) {
                props.store(out, "jobmon test broker");
            }
            int rc = StorageTool.execute(new String[] {"format", "-t", "jobmon-test-cluster-0001", "-c",
                    config.toString(), "--ignore-formatted"}, new PrintStream(PrintStream.nullOutputStream()));
            if (rc != 0) {
                throw new IllegalStateException("kafka storage format failed: " + rc);
            }
            KafkaRaftServer server = new KafkaRaftServer(new KafkaConfig(props), Time.SYSTEM);
            server.startup();
            Runtime.getRuntime().addShutdownHook(new Thread(server::shutdown, "embedded-kafka-stop"));
            return "127.0.0.1:" + brokerPort;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        }
    }
}
