package io.jobmon.sim.bench;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.jobmon.sim.FreePorts;
import io.jobmon.sim.JobServiceWorkload;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Measures the sim as {@code ./jobmon up} would run it: a separate JVM started from the packaged module
 * ({@code target/simcluster.jar} and {@code target/lib}), time to its ready line, resident memory, CPU over an idle
 * minute, then the same with six 8-GPU jobs running and every exporter scraped every 15 s. Prints the figures.
 *
 * <pre>
 * ./mvnw -B -q -o -pl deploy/simcluster -am -Dmaven.test.skip=true package
 * ./mvnw -B -q -o -pl deploy/simcluster dependency:build-classpath -Dmdep.outputFile=target/test-cp.txt -Dmdep.includeScope=test
 * java -cp deploy/simcluster/target/test-classes:deploy/simcluster/target/classes:$(cat deploy/simcluster/target/test-cp.txt) \
 *   io.jobmon.sim.bench.SimFootprintBench [idle seconds, default 60] [JVM options of the sim, default below]
 * </pre>
 */
public final class SimFootprintBench {

    static final String DEFAULT_OPTS = "-Xmx128m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xss512k -XX:ReservedCodeCacheSize=64m";

    public static void main(String[] args) throws Exception {
        int idleSeconds = args.length > 0 ? Integer.parseInt(args[0]) : 60;
        String opts = args.length > 1 ? args[1] : DEFAULT_OPTS;
        Path module = Path.of(Files.isDirectory(Path.of("deploy/simcluster")) ? "deploy/simcluster" : ".");
        Path state = Files.createTempDirectory("sim-bench-");
        int apiPort = FreePorts.base(1);
        int base = FreePorts.base(12);
        List<String> cmd = new ArrayList<>(List.of("java"));
        cmd.addAll(List.of(opts.split(" ")));
        cmd.addAll(List.of("-cp", module.resolve("target/simcluster.jar") + ":" + module.resolve("target/lib") + "/*",
                "io.jobmon.sim.SimClusterMain", "--api-port", String.valueOf(apiPort), "--admin-port",
                String.valueOf(FreePorts.base(1)), "--exporter-base-port",
                String.valueOf(base), "--state-dir", state.toString(), "--run-time", "30m"));
        long t0 = System.nanoTime();
        Process sim = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(sim.getInputStream()));
        String ready = null;
        for (String line; (line = out.readLine()) != null;) {
            if (line.startsWith("sim ready:")) {
                ready = line;
                break;
            }
        }
        if (ready == null) {
            throw new IllegalStateException("the sim did not start");
        }
        long readyMs = (System.nanoTime() - t0) / 1_000_000;
        Thread drain = new Thread(() -> out.lines().forEach(l -> { }));
        drain.setDaemon(true);
        drain.start();
        long pid = sim.pid();
        System.out.printf("sim JVM options: %s%n", opts);
        System.out.printf("start: %d ms from exec to ready line (%s)%n", readyMs, ready.replaceAll(".*started in ", "main: "));
        System.out.printf("load average at start: %s%n", Files.readString(Path.of("/proc/loadavg")).trim());
        Thread.sleep(5_000);
        System.out.printf("idle: RSS %d MiB right after start%n", rssKiB(pid) / 1024);
        double idleCpu = cpuPercent(pid, idleSeconds, null);
        System.out.printf("idle: CPU %.2f %% of one core over %d s, RSS %d MiB%n", idleCpu, idleSeconds, rssKiB(pid) / 1024);

        Path kubeconfig = state.resolve("kubeconfig");
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig("sim",
                Files.readString(kubeconfig), kubeconfig.toString())).build()) {
            for (int i = 0; i < 6; i++) {
                client.batch().v1().jobs().inNamespace("jobmon-jobs").resource(JobServiceWorkload.build("bench-" + i,
                        "jobmon-jobs", 1, 8, Map.of())).create();
            }
            long deadline = System.currentTimeMillis() + 180_000;
            while (System.currentTimeMillis() < deadline && client.pods().inNamespace("jobmon-jobs").list().getItems().stream()
                    .filter(p -> "Running".equals(p.getStatus().getPhase())).count() < 6) {
                Thread.sleep(1000);
            }
        }
        HttpClient http = HttpClient.newHttpClient();
        Runnable scrape = () -> {
            for (int p = base; p < base + 12; p++) {
                try {
                    http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + p + "/metrics")).build(),
                            HttpResponse.BodyHandlers.discarding());
                } catch (IOException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }
        };
        double busyCpu = cpuPercent(pid, 60, scrape);
        System.out.printf("6 jobs running, 12 endpoints scraped every 15 s: CPU %.2f %% of one core over 60 s, RSS %d MiB%n",
                busyCpu, rssKiB(pid) / 1024);
        sim.destroy();
        sim.waitFor();
    }

    static long rssKiB(long pid) throws IOException {
        for (String l : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (l.startsWith("VmRSS:")) {
                return Long.parseLong(l.replaceAll("\\D", ""));
            }
        }
        return -1;
    }

    /** utime + stime of the process over the window, in percent of one core (USER_HZ 100). */
    static double cpuPercent(long pid, int seconds, Runnable every15s) throws Exception {
        long before = ticks(pid);
        long start = System.nanoTime();
        for (int s = 0; s < seconds; s++) {
            if (every15s != null && s % 15 == 0) {
                every15s.run();
            }
            Thread.sleep(1000);
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        return (ticks(pid) - before) / 100.0 / elapsed * 100;
    }

    static long ticks(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }
}
