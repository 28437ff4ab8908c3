package io.jobmon.sim;

import io.jobmon.sim.cluster.Pools;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The sim's settings, from {@code --name value} arguments, else {@code JOBMON_SIM_NAME} environment variables (name
 * upper-cased, dashes as underscores), else defaults.
 *
 * @param host address the API server and the exporters bind to (and the nodes' InternalIP)
 * @param apiPort the Kubernetes API server's port
 * @param adminPort the sim's own HTTP API (health, replay)
 * @param kubeconfig where the kubeconfig for the sim is written
 * @param exporterBasePort node i's dcgm-exporter serves on base + 2i, its node_exporter on base + 2i + 1
 * @param kafkaBootstrap Kafka for the log feed; null: no logs are shipped
 * @param logsTopic the log feed's topic
 * @param pools the GPU pools, e.g. {@code A800:4x8,H100:2x8}
 * @param timeScale sim seconds per wall second (delays are divided by it; timestamps stay wall-clock)
 * @param runTime how long a healthy job runs
 * @param pullTime how long an image pull takes (an image is pulled once per node)
 * @param stateDir where the sim writes its kubeconfig and sim.env
 * @param cluster the cluster's name in jobmon (Fluent Bit's {@code cluster} field, the kubeconfig's context)
 * @param namespace the namespace job-service creates workloads in (the kubeconfig's default)
 * @param quotas GPU ResourceQuotas created at start
 * @param eventTtl events last seen longer ago are deleted (the API server's --event-ttl)
 * @param nodeDowntime how long a lost node stays away
 */
public record SimConfig(String host, int apiPort, int adminPort, Path kubeconfig, int exporterBasePort, String kafkaBootstrap,
        String logsTopic, String pools, double timeScale, Duration runTime, Duration pullTime, Path stateDir,
        String cluster, String namespace, List<SimBootstrap.GpuQuota> quotas, Duration eventTtl,
        Duration nodeDowntime) {

    static final String ENV_PREFIX = "JOBMON_SIM_";
    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)");

    public static SimConfig parse(String[] args, Map<String, String> env) {
        Map<String, String> opts = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (!a.startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument '" + a + "' (options are --name value)");
            }
            String name = a.substring(2);
            String value;
            if (name.contains("=")) {
                value = name.substring(name.indexOf('=') + 1);
                name = name.substring(0, name.indexOf('='));
            } else if (i + 1 < args.length) {
                value = args[++i];
            } else {
                throw new IllegalArgumentException("--" + name + " needs a value");
            }
            opts.put(name, value);
        }
        java.util.function.BiFunction<String, String, String> get = (name, def) -> {
            String v = opts.remove(name);
            if (v == null) {
                v = env.get(ENV_PREFIX + name.toUpperCase(Locale.ROOT).replace('-', '_'));
            }
            return v == null || v.isBlank() ? def : v;
        };
        Path stateDir = Path.of(get.apply("state-dir", ".jobmon/sim"));
        SimConfig c = new SimConfig(get.apply("host", "127.0.0.1"), Integer.parseInt(get.apply("api-port", "16443")),
                Integer.parseInt(get.apply("admin-port", "16444")),
                Path.of(get.apply("kubeconfig", stateDir.resolve("kubeconfig").toString())),
                Integer.parseInt(get.apply("exporter-base-port", "19400")), get.apply("kafka-bootstrap", null),
                get.apply("logs-topic", "jobmon.logs.lines"), get.apply("pools", Pools.DEFAULT),
                Double.parseDouble(get.apply("time-scale", "1")), duration(get.apply("run-time", "10m")),
                duration(get.apply("pull-time", "20s")), stateDir, get.apply("cluster", "sim"),
                get.apply("namespace", "jobmon-jobs"), quotas(get.apply("quotas", "")),
                duration(get.apply("event-ttl", "1h")), duration(get.apply("node-downtime", "10m")));
        if (!opts.isEmpty()) {
            throw new IllegalArgumentException("unknown option(s): --" + String.join(", --", opts.keySet()));
        }
        Pools.parse(c.pools());
        if (!(c.timeScale() > 0)) {
            throw new IllegalArgumentException("--time-scale must be > 0");
        }
        return c;
    }

    /** {@code 500ms}, {@code 30s}, {@code 10m}, {@code 1h}, {@code 1.5m}. */
    static Duration duration(String s) {
        Matcher m = DURATION.matcher(s.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + s + "' is not a duration like 30s, 10m, 1h, 500ms");
        }
        double v = Double.parseDouble(m.group(1));
        long ms = switch (m.group(2)) {
            case "ms" -> (long) v;
            case "s" -> (long) (v * 1000);
            case "m" -> (long) (v * 60_000);
            default -> (long) (v * 3_600_000);
        };
        return Duration.ofMillis(ms);
    }

    /** {@code jobmon-jobs:32,team-b:16}: namespace and its requests.nvidia.com/gpu hard limit. */
    static List<SimBootstrap.GpuQuota> quotas(String s) {
        List<SimBootstrap.GpuQuota> out = new ArrayList<>();
        for (String part : s.split(",")) {
            if (part.isBlank()) {
                continue;
            }
            String[] nq = part.trim().split(":");
            if (nq.length != 2) {
                throw new IllegalArgumentException("quota '" + part + "' is not NAMESPACE:GPUS");
            }
            out.add(new SimBootstrap.GpuQuota(nq[0], Integer.parseInt(nq[1])));
        }
        return out;
    }
}
