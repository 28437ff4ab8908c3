package io.jobmon.sim;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole sim on its own clock, driven as job-service and event-ingest drive a cluster: a fabric8 client from the
 * written kubeconfig creates Jobs shaped as job-service's and deletes them in the foreground; an informer on the
 * job label watches pods as event-ingest's watcher does; the exporter pods lead to the nodes' endpoints.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SimClusterTest {

    private static final String NS = "jobmon-jobs";
    private static final String FULL = "0/2 nodes are available: 2 Insufficient nvidia.com/gpu. preemption: 0/2 nodes "
            + "are available: 2 No preemption victims found for incoming pod.";

    @TempDir
    static Path state;
    private static SimCluster cluster;
    private static KubernetesClient client;
    private static SharedIndexInformer<Pod> watcher;
    private static final List<String> seen = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        SimConfig config = SimConfig.parse(new String[] {"--api-port", "0", "--admin-port", "0", "--exporter-base-port",
                String.valueOf(FreePorts.base(4)), "--pools", "A800:1x8,H100:1x8", "--time-scale", "30", "--run-time",
                "90s", "--state-dir", state.toString()}, Map.of());
        cluster = SimCluster.start(config);
        Path kubeconfig = state.resolve("kubeconfig");
        client = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig("sim", Files.readString(kubeconfig),
                kubeconfig.toString())).build();
        watcher = client.pods().inAnyNamespace().withLabel("jobmon.io/job-id").inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Pod p) {
                seen.add(p.getMetadata().getName() + " " + p.getStatus().getPhase());
            }

            @Override
            public void onUpdate(Pod o, Pod p) {
                seen.add(p.getMetadata().getName() + " " + p.getStatus().getPhase());
            }

            @Override
            public void onDelete(Pod p, boolean unknown) {
                seen.add(p.getMetadata().getName() + " DELETED");
            }
        });
    }

    @AfterAll
    static void stop() {
        watcher.stop();
        client.close();
        cluster.close();
    }

    private static List<Pod> pods(String jobId) {
        return client.pods().inNamespace(NS).withLabel("jobmon.io/job-id", jobId).list().getItems();
    }

    private static Optional<PodCondition> condition(Pod p, String type) {
        return p.getStatus().getConditions() == null ? Optional.empty()
                : p.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst();
    }

    private static boolean jobHas(String jobId, String condition) {
        var job = client.batch().v1().jobs().inNamespace(NS).withName(jobId).get();
        return job != null && job.getStatus() != null && job.getStatus().getConditions() != null
                && job.getStatus().getConditions().stream().anyMatch(c -> condition.equals(c.getType()));
    }

    @Test
    @Order(1)
    void aJobWaitsWithTheSchedulersReasonWhileGpusAreFullThenRunsAndSucceeds() {
        client.batch().v1().jobs().inNamespace(NS).resource(JobServiceWorkload.build("job-a", NS, 2, 8, Map.of())).create();
        await().atMost(90, TimeUnit.SECONDS).until(() -> pods("job-a").size() == 2
                && pods("job-a").stream().allMatch(p -> p.getSpec().getNodeName() != null));
        client.batch().v1().jobs().inNamespace(NS).resource(JobServiceWorkload.build("job-b", NS, 1, 8, Map.of())).create();

        await().atMost(90, TimeUnit.SECONDS).until(() -> pods("job-b").stream()
                .anyMatch(p -> condition(p, "PodScheduled").map(c -> "False".equals(c.getStatus())).orElse(false)));
        Pod waiting = pods("job-b").get(0);
        PodCondition scheduled = condition(waiting, "PodScheduled").orElseThrow();
        assertEquals("Unschedulable", scheduled.getReason());
        assertEquals(FULL, scheduled.getMessage());
        assertEquals("Pending", waiting.getStatus().getPhase());
        assertTrue(client.v1().events().inNamespace(NS).list().getItems().stream().anyMatch(e -> "FailedScheduling".equals(e.getReason())
                && waiting.getMetadata().getName().equals(e.getInvolvedObject().getName()) && FULL.equals(e.getMessage())));

        await().atMost(120, TimeUnit.SECONDS).until(() -> pods("job-a").stream().allMatch(p -> "Running".equals(p.getStatus().getPhase())));
        for (Pod p : pods("job-a")) {
            assertTrue(client.v1().events().inNamespace(NS).list().getItems().stream().anyMatch(e -> "Scheduled".equals(e.getReason())
                    && ("Successfully assigned " + NS + "/" + p.getMetadata().getName() + " to " + p.getSpec().getNodeName())
                            .equals(e.getMessage())));
        }
        await().atMost(180, TimeUnit.SECONDS).until(() -> jobHas("job-a", "Complete"));
        await().atMost(180, TimeUnit.SECONDS).until(() -> jobHas("job-b", "Complete"));
        String b = waiting.getMetadata().getName();
        assertTrue(seen.contains(b + " Pending") && seen.contains(b + " Running") && seen.contains(b + " Succeeded"),
                "the watcher saw " + seen);
        assertEquals("Succeeded", client.pods().inNamespace(NS).withName(b).get().getStatus().getPhase());
    }

    @Test
    @Order(2)
    void theExporterPodsLeadToEachNodesEndpointsWhichAttributeTheRunningPodsGpus() throws Exception {
        client.batch().v1().jobs().inNamespace(NS).resource(JobServiceWorkload.build("job-c", NS, 1, 8,
                Map.of("sim.jobmon.io/scenario", "hang"))).create();
        await().atMost(120, TimeUnit.SECONDS).until(() -> pods("job-c").stream().anyMatch(p -> "Running".equals(p.getStatus().getPhase())));
        Pod pod = pods("job-c").get(0);
        var exporters = client.pods().inNamespace("gpu-operator").withLabel("app", "nvidia-dcgm-exporter").list().getItems();
        assertEquals(2, exporters.size());
        Pod exporter = exporters.stream().filter(e -> pod.getSpec().getNodeName().equals(e.getSpec().getNodeName())).findFirst().orElseThrow();
        int port = exporter.getSpec().getContainers().get(0).getPorts().get(0).getContainerPort();
        String url = "http://" + exporter.getStatus().getPodIP() + ":" + port + "/metrics";
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode());
        assertEquals("text/plain; version=0.0.4; charset=utf-8", r.headers().firstValue("Content-Type").orElse(""));
        assertTrue(r.body().contains("DCGM_FI_DEV_GPU_UTIL{gpu=\"0\""), r.body().substring(0, 300));
        assertTrue(r.body().contains(",container=\"main\",namespace=\"jobmon-jobs\",pod=\"" + pod.getMetadata().getName() + "\"}"));
        var nodeExporter = client.pods().inNamespace("monitoring").withLabel("app", "node-exporter").list().getItems().stream()
                .filter(e -> pod.getSpec().getNodeName().equals(e.getSpec().getNodeName())).findFirst().orElseThrow();
        String nodeUrl = "http://" + nodeExporter.getStatus().getPodIP() + ":"
                + nodeExporter.getSpec().getContainers().get(0).getPorts().get(0).getContainerPort() + "/metrics";
        String node = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(nodeUrl)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        assertTrue(node.contains("# TYPE node_cpu_seconds_total counter"));
    }

    @Test
    @Order(3)
    void stoppingARunningJobStopsItsPodsAndTheyAreGoneFromTheApi() {
        Pod pod = pods("job-c").get(0);
        client.batch().v1().jobs().inNamespace(NS).withName("job-c").withPropagationPolicy(DeletionPropagation.FOREGROUND).delete();
        await().atMost(120, TimeUnit.SECONDS).until(() -> pods("job-c").isEmpty()
                && client.batch().v1().jobs().inNamespace(NS).withName("job-c").get() == null);
        assertTrue(client.v1().events().inNamespace(NS).list().getItems().stream().anyMatch(e -> "Killing".equals(e.getReason())
                && pod.getMetadata().getName().equals(e.getInvolvedObject().getName())));
        assertTrue(seen.contains(pod.getMetadata().getName() + " Failed"), "the watcher saw the container end: " + seen);
        assertTrue(seen.contains(pod.getMetadata().getName() + " DELETED"));
        await().atMost(30, TimeUnit.SECONDS).until(() -> cluster.sim().fleet().nodes().stream()
                .mapToInt(n -> cluster.sim().fleet().freeGpus(n)).sum() == 16);
    }
}
