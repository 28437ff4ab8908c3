package io.jobmon.sim.replay;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jobmon.sim.Sim;
import io.jobmon.sim.clock.LoopClock;
import io.jobmon.sim.control.EventRecorder;
import io.jobmon.sim.control.Replay;
import io.jobmon.sim.kubelet.Images;
import io.jobmon.sim.logs.LogSink;
import io.jobmon.sim.telemetry.ExporterServers;
import io.jobmon.sim.telemetry.ReplaySeries;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

/**
 * Plays a diagnosis evidence bundle (diagnosis.md's format) as a job on the sim: its Job, pods (as the bundle left
 * them: phase, node, container states, exit codes, restarts) and events in the API, its log lines on the log feed
 * (user lines as the pod's container lines, system lines as the node's journal or its device plugin's log), its
 * metric series on its nodes' exporters (one sample per scrape, with their timestamps). Times are shifted so the
 * bundle's window ends now (or by a given shift). A pod whose name is taken in the namespace (the same bundle replayed
 * again) is renamed everywhere the bundle names it. Nodes the fleet does not have are added as replay nodes with
 * exporter endpoints of their own. Everything it makes carries the {@code sim.jobmon.io/replay} annotation, which
 * the sim's controllers and kubelets leave alone.
 */
public final class BundlePlayer {

    /** What a replay made. */
    public record Result(String jobId, String namespace, List<String> pods, int events, int logLines, int series,
            int samples, Duration shift) {
    }

    private final Sim sim;
    private final LoopClock clock;
    private final LogSink logs;
    private final ExporterServers exporters;
    private final ReplaySeries replay;
    private final Random random = new Random();

    public BundlePlayer(Sim sim, LoopClock clock, LogSink logs, ExporterServers exporters, ReplaySeries replay) {
        this.sim = sim;
        this.clock = clock;
        this.logs = logs;
        this.exporters = exporters;
        this.replay = replay;
    }

    /** Plays the bundle, shifted so that its window ends now. */
    public Result play(JsonNode bundle, String jobId, String namespace) {
        Instant end = end(bundle);
        return play(bundle, jobId, namespace, end == null ? Duration.ZERO : Duration.between(end, clock.now()));
    }

    public Result play(JsonNode bundle, String jobId, String namespace, Duration shift) {
        return clock.call(() -> new Play(bundle, jobId, namespace, shift).run());
    }

    /** Metric samples of replays not yet scraped (a replay is fully ingested when this is 0). */
    public int pendingSamples() {
        return replay.pending();
    }

    /** Metric samples of one job's replay not yet scraped. */
    public int pendingSamples(String jobId) {
        return replay.pending(jobId);
    }

    private static Instant end(JsonNode b) {
        for (String p : List.of("/window/to", "/job/finishedAt", "/job/startedAt", "/job/submittedAt")) {
            JsonNode n = b.at(p);
            if (n.isTextual()) {
                return Instant.parse(n.asText());
            }
        }
        return null;
    }

    /** One replay of one bundle. */
    private final class Play {
        private JsonNode b;
        private final String jobId;
        private final String ns;
        private final Duration shift;
        private final KubernetesClient client = sim.kube().client();
        private final Map<String, Pod> pods = new LinkedHashMap<>();
        private final Map<String, String> nodeOfPod = new LinkedHashMap<>();
        private Job job;
        private int events;
        private int lines;
        private int series;
        private int samples;

        Play(JsonNode b, String jobId, String ns, Duration shift) {
            this.b = b;
            this.jobId = jobId;
            this.ns = ns;
            this.shift = shift;
        }

        Result run() {
            ensureNamespace();
            b = PodNames.unique(b, name -> client.pods().inNamespace(ns).withName(name).get() != null, jobId);
            nodes().forEach(this::ensureNode);
            job = createJob();
            for (JsonNode p : b.path("pods")) {
                Pod pod = createPod(p);
                pods.put(pod.getMetadata().getName(), pod);
            }
            ReplayEvents replayEvents = new ReplayEvents(client, ns, jobId, job, pods, nodeOfPod, this::at, clock::now);
            b.path("events").forEach(e -> {
                if (replayEvents.create(e)) {
                    events++;
                }
            });
            ReplayLogs replayLogs = new ReplayLogs(logs, sim.systemPods(), ns, jobId, pods, nodeOfPod);
            b.path("logs").forEach(l -> {
                Instant t = at(l.path("time").asText(null));
                if (replayLogs.ship(l, t == null ? clock.now() : t)) {
                    lines++;
                }
            });
            b.path("metrics").forEach(this::serve);
            return new Result(jobId, ns, List.copyOf(pods.keySet()), events, lines, series, samples, shift);
        }

        private Instant at(String time) {
            return time == null || time.isEmpty() ? null : Instant.parse(time).plus(shift);
        }

        private String seconds(String time) {
            Instant t = at(time);
            return t == null ? null : EventRecorder.seconds(t);
        }

        private void ensureNamespace() {
            if (client.namespaces().withName(ns).get() == null) {
                client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
                        .create();
            }
        }

        /** Every node the bundle names: its pods', its Node events', its metrics' hosts. */
        private Set<String> nodes() {
            Set<String> out = new LinkedHashSet<>();
            for (JsonNode p : b.path("pods")) {
                String n = p.path("node").asText("");
                if (!n.isEmpty()) {
                    out.add(n);
                    nodeOfPod.put(p.path("name").asText(), n);
                }
            }
            for (JsonNode e : b.path("events")) {
                String o = e.path("object").asText("");
                if (o.startsWith("Node/")) {
                    out.add(o.substring(5));
                }
            }
            for (JsonNode m : b.path("metrics")) {
                String n = hostOf(m.path("labels"));
                if (n != null) {
                    out.add(n);
                }
            }
            return out;
        }

        /** The node a series comes from: dcgm's Hostname, cAdvisor's node, the scrape target's host, the pod's node. */
        private String hostOf(JsonNode labels) {
            if (labels.hasNonNull("node")) {
                return labels.get("node").asText();
            }
            if (labels.hasNonNull("Hostname")) {
                return labels.get("Hostname").asText();
            }
            if (labels.hasNonNull("instance")) {
                String i = labels.get("instance").asText();
                return i.contains(":") ? i.substring(0, i.lastIndexOf(':')) : i;
            }
            String pod = labels.path("pod").asText(null);
            return pod == null ? null : nodeOfPod.get(pod);
        }

        /** A node the fleet does not have: a Node object (not schedulable), exporters and system pods. */
        private void ensureNode(String name) {
            if (sim.fleet().node(name).isPresent() || client.nodes().withName(name).get() != null) {
                return;
            }
            String now = EventRecorder.seconds(clock.now());
            client.nodes().resource(new NodeBuilder().withNewMetadata().withName(name)
                    .addToLabels("kubernetes.io/hostname", name).addToLabels("kubernetes.io/os", "linux")
                    .addToAnnotations(Replay.ANNOTATION, jobId).endMetadata()
                    .withNewSpec().addNewTaint().withKey("sim.jobmon.io/replay").withEffect("NoSchedule").endTaint().endSpec()
                    .withNewStatus().addNewAddress().withType("InternalIP").withAddress(sim.config().host()).endAddress()
                    .addNewCondition().withType("Ready").withStatus("True").withReason("KubeletReady")
                    .withMessage("kubelet is posting ready status").withLastHeartbeatTime(now).withLastTransitionTime(now)
                    .endCondition().endStatus().build()).create();
            ExporterServers.Ports p = exporters.serveReplay(name);
            sim.systemPods().create(name, p.dcgm(), p.node(), clock.now());
        }

        /** The Job: the one job-service created for the replay (labelled scenario replay), else a new one. */
        private Job createJob() {
            Job existing = client.batch().v1().jobs().inNamespace(ns).withName(jobId).get();
            if (existing != null) {
                return existing;
            }
            JsonNode j = b.path("job");
            String name = j.path("name").asText(jobId);
            return client.batch().v1().jobs().inNamespace(ns).resource(new JobBuilder().withNewMetadata().withName(jobId)
                    .withNamespace(ns).addToLabels("jobmon.io/job-id", jobId).addToAnnotations("jobmon.io/name", name)
                    .addToAnnotations(Replay.ANNOTATION, j.path("id").asText(jobId)).endMetadata()
                    .withNewSpec().withBackoffLimit(0).withNewTemplate().withNewMetadata()
                    .addToLabels("jobmon.io/job-id", jobId).endMetadata().withNewSpec().withRestartPolicy("Never")
                    .addNewContainer().withName("main").withImage("replay").endContainer().endSpec().endTemplate().endSpec()
                    .build()).create();
        }

        private Pod createPod(JsonNode p) {
            JsonNode j = b.path("job");
            String name = p.path("name").asText();
            String node = p.path("node").asText("");
            String phase = p.path("phase").asText("Pending");
            String started = seconds(j.path("startedAt").asText(null));
            String finished = seconds(j.path("finishedAt").asText(null));
            PodBuilder pb = new PodBuilder().withNewMetadata().withName(name).withNamespace(ns)
                    .addToLabels("jobmon.io/job-id", jobId).addToLabels("batch.kubernetes.io/job-name", jobId)
                    .addToLabels("job-name", jobId).addToAnnotations(Replay.ANNOTATION, j.path("id").asText(jobId))
                    .addNewOwnerReference().withApiVersion("batch/v1").withKind("Job").withName(jobId)
                    .withUid(job.getMetadata().getUid()).withController(true).withBlockOwnerDeletion(true)
                    .endOwnerReference().endMetadata()
                    .withNewSpec().withRestartPolicy("Never").withSchedulerName("default-scheduler").endSpec();
            if (!node.isEmpty()) {
                pb.editSpec().withNodeName(node).endSpec();
            }
            if (p.hasNonNull("uid")) {
                // the bundle's own pod UID (its kernel lines name it in cgroup paths): the replayed pod keeps it
                pb.editMetadata().withUid(p.get("uid").asText()).endMetadata();
            }
            List<ContainerStatus> statuses = new ArrayList<>();
            for (JsonNode c : p.path("containers")) {
                String cname = c.path("name").asText("main");
                String image = "registry.local/replay/" + cname + ":" + jobId;
                pb.editSpec().addNewContainer().withName(cname).withImage(image).endContainer().endSpec();
                statuses.add(containerStatus(c, cname, image, started, finished));
            }
            String now = EventRecorder.seconds(clock.now());
            var status = new io.fabric8.kubernetes.api.model.PodStatusBuilder().withPhase(phase)
                    .withStartTime(started != null ? started : now).withContainerStatuses(statuses);
            if (!node.isEmpty()) {
                status.withHostIP(sim.config().host()).withPodIP("10.244.250." + (2 + pods.size()))
                        .addNewCondition().withType("PodScheduled").withStatus("True").withLastTransitionTime(started != null ? started : now)
                        .endCondition();
                boolean ready = "Running".equals(phase);
                status.addNewCondition().withType("Ready").withStatus(ready ? "True" : "False")
                        .withLastTransitionTime(started != null ? started : now).endCondition();
            } else {
                String why = lastMessage("Pod/" + name, "FailedScheduling");
                status.addNewCondition().withType("PodScheduled").withStatus("False").withReason("Unschedulable")
                        .withMessage(why).withLastTransitionTime(now).endCondition();
            }
            if (p.hasNonNull("reason")) {
                status.withReason(p.get("reason").asText());
            }
            return client.pods().inNamespace(ns).resource(pb.withStatus(status.build()).build()).create();
        }

        private ContainerStatus containerStatus(JsonNode c, String name, String image, String started, String finished) {
            String state = c.path("state").asText("waiting");
            String reason = c.path("reason").asText(null);
            ContainerStatusBuilder cs = new ContainerStatusBuilder().withName(name).withImage(image)
                    .withImageID(Images.imageId(image)).withRestartCount(c.path("restartCount").asInt(0))
                    .withReady("running".equals(state)).withStarted("running".equals(state));
            String id = !("running".equals(state) || "terminated".equals(state)) ? null
                    : c.hasNonNull("containerID") ? c.get("containerID").asText()
                    : "containerd://" + Images.containerId(random);
            cs.withContainerID(id);
            switch (state) {
                case "running" -> cs.withNewState().withNewRunning().withStartedAt(started).endRunning().endState();
                case "terminated" -> cs.withNewState().withNewTerminated().withExitCode(c.path("exitCode").asInt(0))
                        .withReason(reason).withStartedAt(started).withFinishedAt(finished).withContainerID(id)
                        .endTerminated().endState();
                default -> cs.withNewState().withNewWaiting().withReason(reason).endWaiting().endState();
            }
            return cs.build();
        }

        private String lastMessage(String object, String reason) {
            String m = null;
            for (JsonNode e : b.path("events")) {
                if (object.equals(e.path("object").asText()) && reason.equals(e.path("reason").asText())) {
                    m = e.path("message").asText();
                }
            }
            return m;
        }

        private void serve(JsonNode m) {
            String name = m.path("name").asText();
            String node = hostOf(m.path("labels"));
            if (node == null || name.isEmpty()) {
                return;
            }
            Map<String, String> labels = new TreeMap<>();
            m.path("labels").fields().forEachRemaining(f -> {
                if (!"instance".equals(f.getKey()) && !"job".equals(f.getKey())) {
                    labels.put(f.getKey(), f.getValue().asText());
                }
            });
            // The job's pods now live in the replay's namespace: dcgm-exporter names a GPU's pod with its namespace.
            if (labels.containsKey("namespace") && pods.containsKey(labels.get("pod"))) {
                labels.put("namespace", ns);
            }
            List<Instant> times = new ArrayList<>();
            List<Double> values = new ArrayList<>();
            for (JsonNode s : m.path("samples")) {
                times.add(Instant.parse(s.get(0).asText()).plus(shift));
                values.add(s.get(1).asDouble());
            }
            replay.add(node, new ReplaySeries.Series(name, dcgmOrder(name, labels), times, values), jobId);
            series++;
            samples += times.size();
        }

        /** dcgm-exporter's label order (gpu, UUID, pci_bus_id, device, modelName, Hostname, then sorted); sorted else. */
        private Map<String, String> dcgmOrder(String name, Map<String, String> labels) {
            if (!name.startsWith("DCGM_")) {
                return labels;
            }
            Map<String, String> out = new LinkedHashMap<>();
            for (String k : List.of("gpu", "UUID", "pci_bus_id", "device", "modelName", "Hostname")) {
                if (labels.containsKey(k)) {
                    out.put(k, labels.get(k));
                }
            }
            labels.forEach(out::putIfAbsent);
            return out;
        }
    }
}
