package io.jobmon.sim;

import io.jobmon.sim.scenario.Scenario;
import io.jobmon.sim.scenario.Scenarios;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;

/**
 * Runs the sim cluster until killed. Options ({@code --name value}, or env {@code JOBMON_SIM_NAME}): see
 * {@link SimConfig}; {@code --help} lists them and the scenarios. Prints one {@code sim ready: ...} line when the API,
 * the nodes and the exporters are up, and writes {@code <state-dir>/sim.env}.
 */
public final class SimClusterMain {

    private SimClusterMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        Locale.setDefault(Locale.ROOT);
        if (args.length == 1 && ("--help".equals(args[0]) || "-h".equals(args[0]))) {
            System.out.println(help());
            return;
        }
        SimConfig config;
        try {
            config = SimConfig.parse(args, System.getenv());
        } catch (IllegalArgumentException e) {
            System.err.println("simcluster: " + e.getMessage() + "\n\n" + help());
            System.exit(2);
            return;
        }
        long t0 = System.nanoTime();
        SimCluster cluster = SimCluster.start(config);
        CountDownLatch done = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            cluster.close();
            done.countDown();
        }, "sim-stop"));
        StringBuilder exporters = new StringBuilder();
        cluster.exporterPorts().forEach((n, p) -> exporters.append(' ').append(n).append('=').append(p.dcgm())
                .append(',').append(p.node()));
        System.out.printf("sim ready: cluster %s, API %s, admin %d, kubeconfig %s, %d nodes, exporters%s, logs %s, started in %d ms%n",
                config.cluster(), cluster.api().url(), cluster.adminPort(), config.kubeconfig().toAbsolutePath(),
                cluster.sim().fleet().nodes().size(),
                exporters, config.kafkaBootstrap() == null ? "off" : config.kafkaBootstrap() + " " + config.logsTopic(),
                (System.nanoTime() - t0) / 1_000_000);
        System.out.flush();
        done.await();
    }

    static String help() {
        StringBuilder b = new StringBuilder("""
                usage: java -cp 'simcluster.jar:lib/*' io.jobmon.sim.SimClusterMain [--name value]...
                options (or env JOBMON_SIM_<NAME>, dashes as underscores):
                  --host 127.0.0.1              bind address of the API and exporters; the nodes' InternalIP
                  --api-port 16443              Kubernetes API (plain HTTP)
                  --admin-port 16444            the sim's own API: GET /healthz, POST /replay?job=ID&namespace=NS
                  --kubeconfig <state>/kubeconfig
                  --exporter-base-port 19400    node i: dcgm-exporter base+2i, node_exporter base+2i+1
                  --kafka-bootstrap host:port   log feed (Fluent Bit records); none: no logs
                  --logs-topic jobmon.logs.lines
                  --pools A800:4x8,H100:2x8     GPU pools: MODEL:NODESxGPUS,...
                  --time-scale 1                sim seconds per wall second
                  --run-time 10m                length of a healthy job
                  --pull-time 20s               image pull time (once per image and node)
                  --state-dir .jobmon/sim       kubeconfig and sim.env
                  --cluster sim                 cluster name (kubeconfig context, log records)
                  --namespace jobmon-jobs       workload namespace (kubeconfig default)
                  --quotas ns:gpus,...          GPU ResourceQuotas to create
                  --event-ttl 1h                events are deleted after this
                  --node-downtime 10m           how long a lost node stays away
                scenarios (pod label jobmon.io/sim-scenario or sim.jobmon.io/scenario):
                """);
        for (Scenario s : Scenarios.all()) {
            b.append(String.format(java.util.Locale.ROOT, "  %-16s %s%n", s.name(), s.plays()));
        }
        return b.toString();
    }
}
