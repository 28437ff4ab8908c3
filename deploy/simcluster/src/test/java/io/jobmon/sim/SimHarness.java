package io.jobmon.sim;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.jobmon.sim.api.SimApiServer;
import io.jobmon.sim.clock.ManualClock;
import io.jobmon.sim.control.Kube;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * The sim on a manual clock against a real (mock) API server, with no informers: its own writes feed its view, and a
 * test hands it what job-service would create. Time moves only in {@link #run}.
 */
public final class SimHarness implements AutoCloseable {

    public final SimApiServer api = SimApiServer.start("127.0.0.1", 0);
    public final ManualClock clock = new ManualClock(Instant.parse("2026-07-13T09:30:00Z"));
    public final RecordingLogSink logs = new RecordingLogSink();
    public final Sim sim;
    /** The nodes' exporter endpoints and kubelets (with {@code exporters}), else null. */
    public final io.jobmon.sim.telemetry.ExporterServers exporters;

    public SimHarness(String pools, Duration runTime) {
        this(pools, runTime, false);
    }

    /** With {@code exporters}: the nodes' endpoints served on free ports, the API server's node proxy to them. */
    public SimHarness(String pools, Duration runTime, boolean exporters) {
        SimConfig config = new SimConfig("127.0.0.1", 0, 0, Path.of("target/kubeconfig"), 0, null, "jobmon.logs.lines",
                pools, 1, runTime, Duration.ofSeconds(20), Path.of("target"), "sim", "jobmon-jobs", List.of(),
                Duration.ofHours(1), Duration.ofMinutes(10));
        sim = new Sim(config, clock, api.newClient("jobmon-jobs"), logs, 7);
        this.exporters = exporters ? new io.jobmon.sim.telemetry.ExporterServers("127.0.0.1", freePort(), clock::now,
                new io.jobmon.sim.telemetry.ReplaySeries()) : null;
        sim.bootstrap(this.exporters);
        if (exporters) {
            api.kubelets(this.exporters::cadvisor);
        }
        clock.runDue();
    }

    private static int freePort() {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            return s.getLocalPort();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    public Kube kube() {
        return sim.kube();
    }

    /** job-service creates the Job. */
    public Job submit(Job job) {
        Job made = kube().create(job);
        clock.runDue();
        return made;
    }

    /** Moves the sim's time on in one-second steps (until {@code until} holds, at most {@code max}). */
    public boolean run(Duration max, BooleanSupplier until) {
        for (long s = 0; s < max.toSeconds(); s++) {
            clock.advance(Duration.ofSeconds(1));
            if (until.getAsBoolean()) {
                return true;
            }
        }
        return until.getAsBoolean();
    }

    public void run(Duration d) {
        run(d, () -> false);
    }

    public List<Pod> podsOf(String jobId) {
        return kube().pods().stream().filter(p -> p.getMetadata().getLabels() != null
                && jobId.equals(p.getMetadata().getLabels().get("jobmon.io/job-id"))).toList();
    }

    public Optional<Pod> pod(String jobId) {
        return podsOf(jobId).stream().findFirst();
    }

    public Optional<Job> job(String jobId) {
        return kube().job("jobmon-jobs/" + jobId);
    }

    /** Events about an object, oldest first, as "Type Reason: message". */
    public List<String> eventsAbout(String name) {
        return api.newClient("jobmon-jobs").v1().events().inAnyNamespace().list().getItems().stream()
                .filter(e -> name.equals(e.getInvolvedObject().getName()))
                .sorted(java.util.Comparator.comparing(Event::getMetadata, java.util.Comparator.comparing(m -> m.getName())))
                .map(e -> e.getType() + " " + e.getReason() + ": " + e.getMessage()).toList();
    }

    public Map<String, String> labels(String scenario) {
        return Map.of("sim.jobmon.io/scenario", scenario);
    }

    @Override
    public void close() {
        if (exporters != null) {
            exporters.close();
        }
        api.close();
    }
}
