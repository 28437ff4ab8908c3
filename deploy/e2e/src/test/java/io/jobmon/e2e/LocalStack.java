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
    /** Instances of each consuming service ({@code JOBMON_REPLICAS}). */
    final int replicas;
    /** Settings of this stack's {@code ./jobmon} beyond the ports (e.g. the sim's run time). */
    private final Map<String, String> env;

    /** The services in the order of their ports (deploy/local/lib.sh): the gateway at the port base, then +1..+5. */
    static final List<String> SERVICES = List.of("gateway", "job-service", "event-ingest-service", "metrics-service",
            "log-service", "diagnosis-service");

    private LocalStack(Path root, Path stateDir, int portBase, int pgPort, int kafkaPort, int keycloakPort, int replicas,
            Map<String, String> env) {
        this.root = root;
        this.stateDir = stateDir;
        this.portBase = portBase;
        this.pgPort = pgPort;
        this.kafkaPort = kafkaPort;
        this.keycloakPort = keycloakPort;
        this.replicas = replicas;
        this.env = Map.copyOf(env);
    }

    /** The same stack with {@code n} instances of each consuming service. */
    LocalStack withReplicas(int n) {
        Map<String, String> e = new java.util.HashMap<>(env);
        e.put("JOBMON_REPLICAS", Integer.toString(n));
        return new LocalStack(root, stateDir, portBase, pgPort, kafkaPort, keycloakPort, n, e);
    }

    /** The same stack with one more {@code ./jobmon} setting. */
    LocalStack withEnv(String key, String value) {
        if (key.equals("JOBMON_REPLICAS")) {
            return withReplicas(Integer.parseInt(value));
        }
        Map<String, String> e = new java.util.HashMap<>(env);
        e.put(key, value);
        return new LocalStack(root, stateDir, portBase, pgPort, kafkaPort, keycloakPort, replicas, e);
    }

    /** The API port of replica {@code replica} (1, 2, ...) of a service: replica r >= 2 at +10r+20 (lib.sh). */
    int servicePort(String service, int replica) {
        int i = SERVICES.indexOf(service);
        if (i < 0) {
            throw new IllegalArgumentException("no service " + service);
        }
        return replica == 1 ? portBase + i : portBase + 10 * replica + 20 + i;
    }

    /** The management port (probes, metrics) of a replica: its API port + 1000. */
    int managementPort(String service, int replica) {
        return servicePort(service, replica) + 1000;
    }

    /** A component's name in {@code ./jobmon} (its PID file, its log): {@code job-service}, {@code job-service-2}. */
    static String component(String service, int replica) {
        return replica == 1 ? service : service + "-" + replica;
    }

    /** The PID {@code ./jobmon} recorded for a component (run/NAME.pid in the state folder). */
    long pid(String component) {
        try {
            return Long.parseLong(Files.readString(stateDir.resolve("run").resolve(component + ".pid")).strip());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
                Integer.getInteger("jobmon.e2e.keycloak-port", 28180), 1, Map.of());
    }

    /**
     * Stops a stack an interrupted earlier run may have left up (by its PID files), then fails unless every port of
     * the stack is free.
     */
    void requireFreePorts() {
        jobmon(Duration.ofMinutes(2), "down");
        List<Integer> taken = listeningPorts();
        if (!taken.isEmpty()) {
            org.junit.jupiter.api.Assertions.fail("ports " + taken + " of the test stack are taken by other processes; "
                    + "free them or move the test stack (-Djobmon.e2e.port-base, -Djobmon.e2e.pg-port, "
                    + "-Djobmon.e2e.kafka-port, -Djobmon.e2e.keycloak-port)");
        }
    }

    /** {@code ./jobmon down}: it succeeds and leaves no port of the stack listening. */
    void downAndCheck() {
        int exit = jobmon(Duration.ofMinutes(3), "down");
        List<Integer> left = listeningPorts();
        org.junit.jupiter.api.Assertions.assertTrue(left.isEmpty(), "still listening after ./jobmon down: " + left);
        org.junit.jupiter.api.Assertions.assertEquals(0, exit, "./jobmon down failed: see its output above");
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

    /**
     * The sim's ports. By the port base alone (deploy/local/lib.sh: base + 8363, + 8364, + 11320) the test stack's
     * would be 36443, 36444 and 39400..: inside the kernel's ephemeral range (32768-60999), where an outgoing
     * connection of anything on the machine may hold one when the sim starts (a CI run failed so). Below it instead.
     */
    private int simApiPort() {
        return portBase - 637;
    }

    private int simAdminPort() {
        return portBase - 636;
    }

    /** The local S3 server of {@code --chunk-store s3} (base + 8365 by the base alone: below the range, as the sim's). */
    private int s3Port() {
        return portBase - 635;
    }

    private int simExporterBasePort() {
        return portBase - 580;
    }

    /** The local Prometheus and Alertmanager (deploy/local/lib.sh: base + 1090, + 1093), unless JOBMON_MONITORING=0. */
    int prometheusPort() {
        return portBase + 1090;
    }

    int alertmanagerPort() {
        return portBase + 1093;
    }

    String prometheus() {
        return "http://127.0.0.1:" + prometheusPort();
    }

    String alertmanager() {
        return "http://127.0.0.1:" + alertmanagerPort();
    }

    /** The sim cluster's Kubernetes API (plain HTTP). */
    String simApi() {
        return "http://127.0.0.1:" + simApiPort();
    }

    /** The sim cluster's admin API ({@code /healthz}, {@code /replay}). */
    String simAdmin() {
        return "http://127.0.0.1:" + simAdminPort();
    }

    /**
     * Every port the stack listens on: PostgreSQL, Kafka (+ controller), Keycloak, the six services (and the replicas'
     * API and management ports), Prometheus and Alertmanager, the sim's API, admin and its fleet's exporters (6 nodes, 2 each).
     */
    List<Integer> ports() {
        List<Integer> ports = new ArrayList<>(List.of(pgPort, kafkaPort, kafkaPort + 1, keycloakPort));
        for (int i = 0; i < 6; i++) {
            ports.add(portBase + i);
        }
        for (int r = 2; r <= replicas; r++) {
            for (String service : SERVICES.subList(1, SERVICES.size())) {
                ports.add(servicePort(service, r));
                ports.add(managementPort(service, r));
            }
        }
        if (!"0".equals(env.get("JOBMON_MONITORING"))) {
            ports.add(prometheusPort());
            ports.add(alertmanagerPort());
        }
        if ("s3".equals(env.get("JOBMON_CHUNK_STORE"))) {
            ports.add(s3Port());
        }
        ports.add(simApiPort());
        ports.add(simAdminPort());
        for (int i = 0; i < 12; i++) {
            ports.add(simExporterBasePort() + i);
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
        env.put("JOBMON_SIM_API_PORT", Integer.toString(simApiPort()));
        env.put("JOBMON_SIM_ADMIN_PORT", Integer.toString(simAdminPort()));
        env.put("JOBMON_SIM_EXPORTER_BASE_PORT", Integer.toString(simExporterBasePort()));
        env.put("JOBMON_S3_PORT", Integer.toString(s3Port()));
        // The sim's healthy runs take this long (failures come at fractions of it): short, for the sim's tests.
        env.put("JOBMON_SIM_RUN_TIME", System.getProperty("jobmon.e2e.sim-run-time", "2m"));
        // The reactor packaged every module before the integration-test phase; never run Maven inside Maven.
        env.put("JOBMON_SKIP_BUILD", "1");
        env.putAll(this.env);
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
