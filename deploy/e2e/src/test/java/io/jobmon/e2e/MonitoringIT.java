package io.jobmon.e2e;

import static io.jobmon.e2e.SimJobs.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.jobmon.sim.stack.StackClient;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The monitoring parts of the local stack with the sim: the kubelets' cAdvisor gives a job on a shared node its own
 * container charts; the local Prometheus evaluates the shipped rules (short {@code for:}), remote-writes the sim's
 * node_exporter series into jobmon with OAuth2 client credentials, and its alerts reach the API through Alertmanager,
 * seen only by those who may view the job and hidden by an admin's silence.
 */
@Order(3)
class MonitoringIT {

    @RegisterExtension
    static final SharedStack.Use STACK = SharedStack.use(SharedStack.SIM);

    /** deploy/local/monitoring.sh: the local rules' {@code for:} and evaluation interval, Prometheus' scrape interval. */
    private static final Duration LOCAL_FOR = Duration.ofSeconds(30);
    private static final Duration EVALUATION = Duration.ofSeconds(10);
    private static final Duration SCRAPE = Duration.ofSeconds(10);
    /** metrics-service's own scrape interval (the sim's dcgm-exporters and cAdvisor). */
    private static final Duration JOBMON_SCRAPE = Duration.ofSeconds(15);

    private static LocalStack stack;
    private static StackClient client;
    private static SimJobs jobs;
    private static final List<String[]> STARTED = new ArrayList<>();

    @BeforeAll
    static void up() {
        stack = STACK.get();
        jobs = new SimJobs(stack);
        client = jobs.client();
    }

    @AfterAll
    static void stopJobs() {
        if (client != null) {
            STARTED.forEach(j -> client.post(j[0], "/api/v1/jobs/" + j[1] + "/stop", Map.of()));
        }
    }

    @Test
    void aHungJobRaisesTheIdleGpuAlertSeenByItsTenantOnlyAndAnAdminsSilenceHidesIt() {
        String job = started("alice", jobs.submit("alice", "llama-hung", "hang", 1, 8, "A800"));
        jobs.await("alice", job, j -> "RUNNING".equals(j.path("status").asText()), Duration.ofMinutes(3));
        // It trains first (its GPUs are also idle while it loads, which may raise the gauge then), then hangs.
        awaitTrue("GPU utilisation of " + job + " above 50 %", () -> client.get("alice", "/api/v1/jobs/" + job
                + "/metrics?metric=gpu_util").require("chart").findValues("points").stream()
                .anyMatch(points -> max(points) > 50), Duration.ofMinutes(2));
        awaitTrue("jobmon_job_gpus_idle of " + job + " at 0 while it trains", () -> idleGauge(job) == 0,
                Duration.ofMinutes(1));
        // metrics-service measures the idleness (its gauge on the management port, which Prometheus scrapes) ...
        awaitTrue("jobmon_job_gpus_idle of " + job + " above 0", () -> idleGauge(job) > 0, Duration.ofMinutes(4));
        long idleSeen = System.nanoTime();
        // ... and the rule fires within its for: plus an evaluation (and a scrape to see the gauge) of that.
        JsonNode[] alert = {null};
        awaitTrue("JobGpusIdle of " + job + " through the API", () -> (alert[0] = alertOf("alice", job)) != null,
                LOCAL_FOR.plus(EVALUATION).plus(SCRAPE).plusSeconds(20), () -> client.get("alice", "/api/v1/jobs/" + job
                        + "/alerts").body());
        System.out.printf("[monitoring] JobGpusIdle through the API %d s after the gauge%n",
                Duration.ofNanos(System.nanoTime() - idleSeen).toSeconds());
        assertEquals("firing", alert[0].path("state").asText(), alert[0].toString());
        assertEquals("warning", alert[0].path("severity").asText(), alert[0].toString());
        assertEquals(job, alert[0].path("jobId").asText(), alert[0].toString());
        assertFalse(alert[0].path("summary").asText().isBlank(), alert[0].toString());
        awaitTrue("alertsFiring on the job's detail", () -> client.get("alice", "/api/v1/jobs/" + job)
                .require("job").path("alertsFiring").asInt() >= 1, Duration.ofSeconds(30));
        assertTrue(client.get("alice", "/api/v1/alerts?state=firing").require("alerts").path("items").toString()
                .contains(job), "the job's alert in alice's list of alerts");

        // Another tenant's user: the job does not exist for him, nor its alerts.
        assertEquals(404, client.get("dave", "/api/v1/jobs/" + job + "/alerts").status());
        assertFalse(client.get("dave", "/api/v1/alerts?state=all").require("dave's alerts").toString().contains(job),
                "another tenant sees alice's alert");

        // The tenant's admin silences it: the alert shows as silenced and no longer counts as firing on the job.
        JsonNode silence = client.post("admin", "/api/v1/alerts/silences", Map.of("matchers",
                List.of(Map.of("name", "job_id", "value", job)), "duration", "30m", "comment", "e2e: hung on purpose"))
                .require("silence");
        assertTrue(silence.toString().contains("t1"), "the silence is scoped to the admin's tenant: " + silence);
        awaitTrue("the alert silenced", () -> {
            JsonNode a = alertOf("alice", job);
            return a != null && "silenced".equals(a.path("state").asText());
        }, Duration.ofSeconds(30));
        awaitTrue("alertsFiring back to 0", () -> client.get("alice", "/api/v1/jobs/" + job).require("job")
                .path("alertsFiring").asInt() == 0, Duration.ofSeconds(30));
    }

    @Test
    void prometheusRemoteWritesTheNodeSeriesIntoAJobsChartWithOAuth2() {
        // A whole node's job: the node's InfiniBand traffic is its own (attributed by placement). node_exporter's
        // series reach jobmon only through the local Prometheus' remote-write (ADR 0032).
        String job = started("bob", jobs.submit("bob", "gpt-whole-node", null, 1, 8, "A800"));
        jobs.await("bob", job, j -> "RUNNING".equals(j.path("status").asText()), Duration.ofMinutes(3));
        awaitTrue("ib_rx points on " + job + "'s chart", () -> points(client.get("bob", "/api/v1/jobs/" + job
                + "/metrics?metric=ib_rx").require("chart")) >= 2, Duration.ofMinutes(2));
        String prometheus = Http.get(stack.prometheus() + "/metrics", null).body();
        assertTrue(counter(prometheus, "prometheus_remote_storage_samples_total") > 0, "Prometheus sent no samples");
        assertEquals(0, counter(prometheus, "prometheus_remote_storage_samples_failed_total"),
                "samples refused by jobmon (a 401/403 means the OAuth2 token was not accepted)");
    }

    @Test
    void aJobOnASharedNodeHasItsOwnContainerMemoryRisingToItsLimitAndCpuAndNetworkPerScrape() {
        // With a memory limit: the kubelet's cAdvisor reports it beside the working set.
        String oom = started("bob", jobs.submit("bob", "vicuna-oom-shared", "oom", 1, 4, "H100", Map.of("resources",
                Map.of("gpuType", "H100", "gpusPerReplica", 4, "cpu", "16", "memory", "64Gi"))));
        // Earlier classes' jobs may still hold GPUs of the H100 nodes (the stack is shared): the neighbour asks for
        // what is left beside the OOM job, so bin-packing puts it there (the node left with the fewest free GPUs).
        String node = jobs.nodeOf("bob", oom);
        int[] free = {0};
        awaitTrue("a GPU free beside " + oom + " on " + node, () -> (free[0] = freeGpus(node)) > 0, Duration.ofMinutes(3));
        String neighbour = started("carol", jobs.submit("carol", "vit-shared", null, 1, Math.min(4, free[0]), "H100"));
        assertEquals(node, jobs.nodeOf("carol", neighbour), "the sim bin-packs both onto one node (" + free[0] + " free)");
        jobs.await("bob", oom, j -> "FAILED".equals(j.path("status").asText()), Duration.ofMinutes(4));

        JsonNode memory = client.get("bob", "/api/v1/jobs/" + oom
                + "/metrics?metric=container_mem_working_set&metric=container_mem_limit&groupBy=container").require("chart");
        double limit = max(memory, "container_mem_limit");
        List<Double> used = values(memory, "container_mem_working_set");
        assertTrue(limit > 0, "the container's memory limit: " + memory);
        assertTrue(used.size() >= 3, "a point per scrape of the OOM container: " + memory);
        assertTrue(used.get(used.size() - 1) >= 0.9 * limit, "working set at its limit at the end: " + used + " / " + limit);
        assertTrue(used.get(0) < used.get(used.size() - 1), "working set rising: " + used);
        List<String> pods = client.get("bob", "/api/v1/jobs/" + oom + "/pods").require("pods").path("items")
                .findValuesAsText("name");
        for (JsonNode s : memory.path("series")) {
            assertTrue(pods.contains(s.at("/group/pod").asText()), "a line of another pod in bob's chart: " + s);
        }

        for (String metric : List.of("container_cpu", "container_net_rx")) {
            awaitTrue(metric + " of " + neighbour + " at a point per scrape", () -> {
                List<Long> times = times(client.get("carol", "/api/v1/jobs/" + neighbour + "/metrics?metric=" + metric
                        + "&step=" + JOBMON_SCRAPE.toSeconds() + "s&from=" + java.time.Instant.now().minusSeconds(120))
                        .require("chart"));
                return times.size() >= 4 && gapsAtMost(times, JOBMON_SCRAPE.multipliedBy(2).toMillis());
            }, Duration.ofMinutes(2));
        }
    }

    // ---- helpers -----------------------------------------------------------------------------------------

    private static String started(String user, String job) {
        STARTED.add(new String[] {user, job});
        return job;
    }

    /** GPUs of the node that no pod which has not ended holds, as the sim's API tells (allocatable less requests). */
    private static int freeGpus(String node) {
        int free = client.kube("/api/v1/nodes/" + node).require("node " + node).at("/status/allocatable")
                .path("nvidia.com/gpu").asInt();
        for (JsonNode p : client.kube("/api/v1/pods").require("pods").path("items")) {
            String phase = p.at("/status/phase").asText();
            if (node.equals(p.at("/spec/nodeName").asText()) && !"Succeeded".equals(phase) && !"Failed".equals(phase)) {
                for (JsonNode c : p.at("/spec/containers")) {
                    free -= c.at("/resources/limits").path("nvidia.com/gpu").asInt(0);
                }
            }
        }
        return free;
    }

    /** The job's JobGpusIdle alert as {@code user} reads it, or null. */
    private static JsonNode alertOf(String user, String job) {
        for (JsonNode a : client.get(user, "/api/v1/jobs/" + job + "/alerts").require("alerts").path("items")) {
            if ("JobGpusIdle".equals(a.path("alertname").asText())) {
                return a;
            }
        }
        return null;
    }

    /** {@code jobmon_job_gpus_idle} of the job on metrics-service's management port (0 when absent). */
    private static double idleGauge(String job) {
        String body = Http.get("http://localhost:" + stack.managementPort("metrics-service", 1) + "/q/metrics", null).body();
        Matcher m = Pattern.compile("^jobmon_job_gpus_idle\\{[^}]*job_id=\"" + Pattern.quote(job) + "\"[^}]*} (\\S+)$",
                Pattern.MULTILINE).matcher(body);
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }

    private static double counter(String exposition, String name) {
        double sum = 0;
        Matcher m = Pattern.compile("^" + name + "(\\{[^}]*})? (\\S+)$", Pattern.MULTILINE).matcher(exposition);
        while (m.find()) {
            sum += Double.parseDouble(m.group(2));
        }
        return sum;
    }

    private static int points(JsonNode chart) {
        int n = 0;
        for (JsonNode s : chart.path("series")) {
            n += s.path("points").size();
        }
        return n;
    }

    private static List<Double> values(JsonNode chart, String metric) {
        List<Double> out = new ArrayList<>();
        for (JsonNode s : chart.path("series")) {
            if (metric.equals(s.path("metric").asText())) {
                s.path("points").forEach(p -> out.add(p.get(1).asDouble()));
            }
        }
        return out;
    }

    /** The highest value of a line's {@code [[time, value], ...]}. */
    private static double max(JsonNode points) {
        double max = Double.NEGATIVE_INFINITY;
        for (JsonNode p : points) {
            max = Math.max(max, p.get(1).asDouble());
        }
        return max;
    }

    private static double max(JsonNode chart, String metric) {
        return values(chart, metric).stream().mapToDouble(Double::doubleValue).max().orElse(0);
    }

    private static List<Long> times(JsonNode chart) {
        List<Long> out = new ArrayList<>();
        JsonNode first = chart.path("series").path(0);
        first.path("points").forEach(p -> out.add(Instant.parse(p.get(0).asText()).toEpochMilli()));
        return out;
    }

    private static boolean gapsAtMost(List<Long> times, long maxGapMs) {
        for (int i = 1; i < times.size(); i++) {
            if (times.get(i) - times.get(i - 1) > maxGapMs) {
                return false;
            }
        }
        return true;
    }
}
