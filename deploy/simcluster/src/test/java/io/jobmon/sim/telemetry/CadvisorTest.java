package io.jobmon.sim.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.jobmon.sim.JobServiceWorkload;
import io.jobmon.sim.SimHarness;
import io.jobmon.sim.telemetry.ExpositionParser.Family;
import io.jobmon.sim.telemetry.ExpositionParser.Sample;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The nodes' kubelet cAdvisor text, read as metrics-service reads it: through the API server's node proxy with a
 * fabric8 client, and on the node's kubelet port; an {@code oom} job sharing its node with a training job.
 */
class CadvisorTest {

    private static final String NS = "jobmon-jobs";
    private static final String NODE = "gpu-a800-01";
    private final SimHarness h = new SimHarness("A800:1x8", Duration.ofMinutes(5), true);
    private final KubernetesClient client = h.api.newClient(NS);

    @AfterEach
    void close() {
        client.close();
        h.close();
    }

    private Map<String, Family> scrape() {
        String body = client.raw(h.api.url() + "/api/v1/nodes/" + NODE + "/proxy/metrics/cadvisor");
        return ExpositionParser.parse(body);
    }

    private static Optional<Sample> sample(Map<String, Family> f, String family, String pod, String container) {
        Family fam = f.get(family);
        return fam == null ? Optional.empty() : fam.samples().stream()
                .filter(s -> pod.equals(s.labels().get("pod")) && container.equals(s.labels().get("container")))
                .findFirst();
    }

    private static double value(Map<String, Family> f, String family, String pod, String container) {
        return sample(f, family, pod, container).map(Sample::value).orElse(Double.NaN);
    }

    @Test
    void anOomJobOnASharedNodeClimbsToItsLimitWhileItsNeighbourCountsAPointPerScrape() {
        h.submit(JobServiceWorkload.build("job-oom", NS, 1, 4, h.labels("oom")));
        h.submit(JobServiceWorkload.build("job-train", NS, 1, 4, h.labels("healthy")));
        h.run(Duration.ofSeconds(5));
        String oom = h.pod("job-oom").orElseThrow().getMetadata().getName();
        String train = h.pod("job-train").orElseThrow().getMetadata().getName();
        assertEquals(NODE, h.pod("job-oom").orElseThrow().getSpec().getNodeName());
        assertEquals(NODE, h.pod("job-train").orElseThrow().getSpec().getNodeName());
        long limit = 128L << 30;
        List<Double> workingSet = new ArrayList<>();
        List<Double> trainCpu = new ArrayList<>();
        List<Double> trainRx = new ArrayList<>();
        Map<String, Family> afterKill = null;
        for (int i = 0; i < 60 && afterKill == null; i++) {
            h.run(Duration.ofSeconds(15));
            Map<String, Family> f = scrape();
            double ws = value(f, "container_memory_working_set_bytes", oom, "main");
            if (!Double.isNaN(ws)) {
                workingSet.add(ws);
                assertEquals(limit, value(f, "container_spec_memory_limit_bytes", oom, "main"));
            }
            if (!Double.isNaN(value(f, "container_cpu_usage_seconds_total", train, "main"))) {
                trainCpu.add(value(f, "container_cpu_usage_seconds_total", train, "main"));
                trainRx.add(value(f, "container_network_receive_bytes_total", train, "POD"));
            }
            if (h.pod("job-oom").orElseThrow().getStatus().getPhase().equals("Failed")) {
                afterKill = f;
            }
        }
        assertTrue(afterKill != null, "the oom pod was killed");
        assertTrue(workingSet.size() >= 5, "a working set per scrape: " + workingSet);
        assertTrue(workingSet.get(0) < limit * 0.5, "it starts low: " + workingSet);
        assertEquals(limit, workingSet.stream().mapToDouble(d -> d).max().orElseThrow(), "it reaches the limit");
        assertEquals(1, value(afterKill, "container_oom_events_total", oom, "main"), "the killed container's OOM event");
        assertEquals(1, value(afterKill, "container_oom_events_total", oom, ""), "the pod cgroup's");
        assertEquals(0, value(afterKill, "container_oom_events_total", train, "main"));
        for (int i = 1; i < trainCpu.size(); i++) {
            assertTrue(trainCpu.get(i) > trainCpu.get(i - 1), "CPU seconds grow every scrape: " + trainCpu);
            assertTrue(trainRx.get(i) > trainRx.get(i - 1), "NCCL bytes grow every scrape: " + trainRx);
        }
        double cores = (trainCpu.get(trainCpu.size() - 1) - trainCpu.get(1)) / (15.0 * (trainCpu.size() - 2));
        assertTrue(cores > 2 && cores <= 16.001, "a training container uses several cores, at most its limit's: " + cores);
    }

    @Test
    void theTextIsCadvisorsLabelsTypesAndTimestampsAndTheKubeletPortServesIt() throws Exception {
        h.submit(JobServiceWorkload.build("job-train", NS, 1, 8, h.labels("healthy")));
        h.run(Duration.ofMinutes(1));
        Pod pod = h.pod("job-train").orElseThrow();
        String name = pod.getMetadata().getName();
        Map<String, Family> f = scrape();
        assertEquals("counter", f.get("container_cpu_usage_seconds_total").type());
        assertEquals("Cumulative cpu time consumed in seconds.", f.get("container_cpu_usage_seconds_total").help());
        assertEquals("gauge", f.get("container_memory_working_set_bytes").type());
        assertEquals(List.copyOf(f.keySet()), f.keySet().stream().sorted().toList(), "families sorted by name");
        Sample cpu = sample(f, "container_cpu_usage_seconds_total", name, "main").orElseThrow();
        String cid = pod.getStatus().getContainerStatuses().get(0).getContainerID().substring("containerd://".length());
        String podCgroup = "/kubepods.slice/kubepods-pod" + pod.getMetadata().getUid().replace('-', '_') + ".slice";
        assertEquals(List.of("container", "cpu", "id", "image", "name", "namespace", "pod"), List.copyOf(cpu.labels().keySet()));
        assertEquals(Map.of("container", "main", "cpu", "total", "id", podCgroup + "/cri-containerd-" + cid + ".scope",
                "image", pod.getSpec().getContainers().get(0).getImage(), "name", cid, "namespace", NS, "pod", name),
                cpu.labels());
        assertEquals(h.clock.now().toEpochMilli(), cpu.timestamp(), "usage carries its sample's time");
        assertNull(sample(f, "container_spec_memory_limit_bytes", name, "main").orElseThrow().timestamp(), "spec has none");
        assertEquals(podCgroup, sample(f, "container_memory_working_set_bytes", name, "").orElseThrow().labels().get("id"));
        Sample rx = sample(f, "container_network_receive_bytes_total", name, "POD").orElseThrow();
        assertEquals(Map.of("container", "POD", "id", podCgroup + "/cri-containerd-" + CadvisorPods.sandbox(pod.getMetadata()
                .getUid()) + ".scope", "image", Cadvisor.PAUSE_IMAGE, "interface", "eth0", "name",
                CadvisorPods.sandbox(pod.getMetadata().getUid()), "namespace", NS, "pod", name), rx.labels());
        assertTrue(f.get("container_network_receive_bytes_total").samples().stream()
                .allMatch(s -> "POD".equals(s.labels().get("container"))), "network is the pod sandbox's only");
        assertEquals("/dev/nvme0n1p2", sample(f, "container_fs_writes_bytes_total", name, "main").orElseThrow()
                .labels().get("device"));
        assertEquals(1_600_000, value(f, "container_spec_cpu_quota", name, "main"), "16 cores a 100 ms period");
        assertTrue(sample(f, "container_memory_working_set_bytes", "", "nvidia-dcgm-exporter").isEmpty());
        assertTrue(f.get("container_memory_working_set_bytes").samples().stream()
                .anyMatch(s -> "nvidia-dcgm-exporter".equals(s.labels().get("container"))), "system pods too");

        int port = client.nodes().withName(NODE).get().getStatus().getDaemonEndpoints().getKubeletEndpoint().getPort();
        assertEquals(h.exporters.ports().get(NODE).node(), port, "the kubelet port is the node_exporter endpoint's");
        HttpResponse<String> direct = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/metrics/cadvisor")).header("Authorization", "Bearer sa-token")
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, direct.statusCode());
        assertEquals(Exposition.CONTENT_TYPE, direct.headers().firstValue("Content-Type").orElseThrow());
        assertTrue(ExpositionParser.parse(direct.body()).get("container_cpu_usage_seconds_total").samples().stream()
                .anyMatch(s -> name.equals(s.labels().get("pod"))));
    }

    @Test
    void anUnknownNodeIsNotFoundAndALostNodeFails() {
        assertNull(client.raw(h.api.url() + "/api/v1/nodes/gpu-x/proxy/metrics/cadvisor"), "404");
        h.sim.fleet().node(NODE).orElseThrow().reachable(false);
        KubernetesClientException e = assertThrows(KubernetesClientException.class, this::scrape);
        assertEquals(503, e.getCode());
    }

    @Test
    void aRestartedContainerCountsFromZeroWhileItsPodsCountersGoOn() {
        Map<String, Quantity> res = Map.of("nvidia.com/gpu", new Quantity("8"), "memory", new Quantity("64Gi"),
                "cpu", new Quantity("8"));
        h.kube().create(new PodBuilder().withNewMetadata().withName("prep-0").withNamespace(NS)
                .addToLabels("sim.jobmon.io/scenario", "oom").endMetadata().withNewSpec().withRestartPolicy("OnFailure")
                .withSchedulerName("default-scheduler").addNewContainer().withName("main").withImage("registry.local/prep:1")
                .withNewResources().withRequests(res).withLimits(res).endResources().endContainer().endSpec()
                .withNewStatus().withPhase("Pending").endStatus().build());
        List<Double> container = new ArrayList<>();
        List<Double> podLevel = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 80; i++) {
            h.run(Duration.ofSeconds(15));
            Map<String, Family> f = scrape();
            sample(f, "container_cpu_usage_seconds_total", "prep-0", "main").ifPresent(s -> {
                container.add(s.value());
                ids.add(s.labels().get("name"));
            });
            podLevel.add(value(f, "container_cpu_usage_seconds_total", "prep-0", ""));
            if (ids.stream().distinct().count() == 2 && !ids.get(ids.size() - 1).equals(ids.get(ids.size() - 2))) {
                break;
            }
        }
        assertEquals(2, ids.stream().distinct().count(), "the container restarted: " + ids);
        int first = ids.indexOf(ids.get(ids.size() - 1));
        assertTrue(container.get(first) < container.get(first - 1), "a new cgroup counts from 0: " + container);
        List<Double> pod = podLevel.stream().filter(d -> !Double.isNaN(d)).toList();
        for (int i = 1; i < pod.size(); i++) {
            assertTrue(pod.get(i) >= pod.get(i - 1), "the pod cgroup's CPU never goes back: " + pod);
        }
        assertEquals(1, value(scrape(), "container_oom_events_total", "prep-0", ""), "the pod cgroup keeps the OOM kill");
    }
}
