package io.jobmon.e2e;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The stack as {@code ./jobmon} runs it, on the test's own ports and state folder (see deploy/e2e/pom.xml),
 * so that a stack a developer has up on the default ports is left alone.
 */
final class LocalStack {

    final Path root;
    final Path stateDir;
    final int portBase;
    final int pgPort;
    final int kafkaPort;
    final int keycloakPort;

    private LocalStack(Path root, Path stateDir, int portBase, int pgPort, int kafkaPort, int keycloakPort) {
        this.root = root;
        this.stateDir = stateDir;
        this.portBase = portBase;
        this.pgPort = pgPort;
        this.kafkaPort = kafkaPort;
        this.keycloakPort = keycloakPort;
    }

    static LocalStack fromSystemProperties() {
        Path root = Path.of(System.getProperty("jobmon.root", "../..")).toAbsolutePath().normalize();
        if (!Files.isRegularFile(root.resolve("jobmon"))) {
            throw new IllegalStateException("no ./jobmon script in " + root + " (system property jobmon.root)");
        }
        return new LocalStack(root,
                Path.of(System.getProperty("jobmon.e2e.state-dir", root.resolve("deploy/e2e/target/jobmon-stack").toString()))
                        .toAbsolutePath(),
                Integer.getInteger("jobmon.e2e.port-base", 28080),
                Integer.getInteger("jobmon.e2e.pg-port", 25432),
                Integer.getInteger("jobmon.e2e.kafka-port", 29092),
                Integer.getInteger("jobmon.e2e.keycloak-port", 28180));
    }

    String gateway() {
        return "http://localhost:" + portBase;
    }

    /** The gateway's management interface (probes, Prometheus): never the API port. */
    String gatewayManagement() {
        return "http://localhost:" + (portBase + 1000);
    }

    String keycloak() {
        return "http://localhost:" + keycloakPort;
    }

    /** The issuer every token of the stack carries, whatever host name fetched it. */
    String issuer() {
        return keycloak() + "/realms/jobmon";
    }

    /** The sim cluster's Kubernetes API (plain HTTP): its ports follow the port base (deploy/local/lib.sh). */
    String simApi() {
        return "http://127.0.0.1:" + (portBase + 8363);
    }

    /** The sim cluster's admin API ({@code /healthz}, {@code /replay}). */
    String simAdmin() {
        return "http://127.0.0.1:" + (portBase + 8364);
    }

    /**
     * Every port the stack listens on: PostgreSQL, Kafka (+ controller), Keycloak, the six services, the sim's API,
     * admin and its fleet's exporters (6 nodes, 2 each).
     */
    List<Integer> ports() {
        List<Integer> ports = new ArrayList<>(List.of(pgPort, kafkaPort, kafkaPort + 1, keycloakPort));
        for (int i = 0; i < 6; i++) {
            ports.add(portBase + i);
        }
        ports.add(portBase + 8363);
        ports.add(portBase + 8364);
        for (int i = 0; i < 12; i++) {
            ports.add(portBase + 11320 + i);
        }
        return ports;
    }

    List<Integer> listeningPorts() {
        List<Integer> open = new ArrayList<>();
        for (int port : ports()) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 500);
                open.add(port);
            } catch (IOException e) {
                // nothing listens: as wanted
            }
        }
        return open;
    }

    /** Runs {@code ./jobmon <args>} for this stack; its output goes to the test log line by line. */
    int jobmon(Duration timeout, String... args) {
        List<String> command = new ArrayList<>(List.of("bash", root.resolve("jobmon").toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(root.toFile()).redirectErrorStream(true);
        Map<String, String> env = pb.environment();
        // A developer's shell may point ./jobmon at other servers: the test stack is always its own.
        env.keySet().removeIf(k -> k.startsWith("JOBMON_"));
        env.put("JOBMON_STATE_DIR", stateDir.toString());
        env.put("JOBMON_PORT_BASE", Integer.toString(portBase));
        env.put("JOBMON_PG_PORT", Integer.toString(pgPort));
        env.put("JOBMON_KAFKA_PORT", Integer.toString(kafkaPort));
        env.put("JOBMON_KEYCLOAK_PORT", Integer.toString(keycloakPort));
        // The sim's healthy runs take this long (failures come at fractions of it): short, for the sim's tests.
        env.put("JOBMON_SIM_RUN_TIME", System.getProperty("jobmon.e2e.sim-run-time", "2m"));
        // The reactor packaged every module before the integration-test phase; never run Maven inside Maven.
        env.put("JOBMON_SKIP_BUILD", "1");
        String label = "[jobmon " + String.join(" ", args) + "] ";
        try {
            Process p = pb.start();
            Thread pump = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = r.readLine()) != null) {
                        System.out.println(label + line);
                    }
                } catch (IOException e) {
                    System.out.println(label + "(output lost: " + e + ")");
                }
            }, "jobmon-output");
            pump.setDaemon(true);
            pump.start();
            if (!p.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
                p.destroy();
                throw new AssertionError("./jobmon " + String.join(" ", args) + " did not finish within " + timeout);
            }
            pump.join(2000);
            return p.exitValue();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
