package io.jobmon.sim;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.jobmon.sim.clock.SimClock;
import io.jobmon.sim.cluster.Fleet;
import io.jobmon.sim.cluster.Pools;
import io.jobmon.sim.cluster.SimNode;
import io.jobmon.sim.control.EventRecorder;
import io.jobmon.sim.control.JobController;
import io.jobmon.sim.control.Kube;
import io.jobmon.sim.control.NodeController;
import io.jobmon.sim.control.Scheduler;
import io.jobmon.sim.kubelet.Kubelet;
import io.jobmon.sim.kubelet.SystemPods;
import io.jobmon.sim.logs.LogSink;
import io.jobmon.sim.telemetry.ExporterServers;
import java.time.Duration;
import java.util.Random;

/**
 * The simulated control plane and nodes, wired on one clock and one API client: the Job controller, the scheduler,
 * the node controller, the kubelets, the fleet of GPU nodes. {@link #bootstrap} fills a fresh API server.
 */
public final class Sim {

    private final SimConfig config;
    private final SimClock clock;
    private final Kube kube;
    private final Fleet fleet;
    private final EventRecorder events;
    private final NodeController nodes;
    private final SystemPods systemPods;
    private final JobController jobs;
    private final Scheduler scheduler;
    private final Kubelet kubelet;

    public Sim(SimConfig config, SimClock clock, KubernetesClient client, LogSink logs, long seed) {
        this.config = config;
        this.clock = clock;
        Random random = new Random(seed);
        this.kube = new Kube(client);
        this.fleet = new Fleet(Pools.parse(config.pools()), clock.now().minus(Duration.ofDays(3)));
        this.events = new EventRecorder(client, clock, config.cluster() + "-control-plane");
        this.nodes = new NodeController(kube, fleet, events, clock, config.host(), config.nodeDowntime());
        this.systemPods = new SystemPods(kube, config.host(), random);
        this.jobs = new JobController(kube, events, clock, random);
        this.scheduler = new Scheduler(kube, fleet, events, clock);
        this.kubelet = new Kubelet(kube, fleet, events, logs, clock, nodes, systemPods,
                new Kubelet.Settings(config.runTime(), config.pullTime(), config.timeScale(), config.host(),
                        Duration.ofMinutes(30), Duration.ofMinutes(15)), random);
    }

    /** Namespaces, PriorityClasses, quotas, the nodes and their system pods (exporters served by {@code exporters}). */
    public void bootstrap(ExporterServers exporters) {
        SimBootstrap.run(kube, config.namespace(), config.quotas());
        nodes.registerAll();
        for (SimNode n : fleet.nodes()) {
            int dcgm = 0;
            int node = 0;
            if (exporters != null) {
                ExporterServers.Ports p = exporters.serve(n);
                dcgm = p.dcgm();
                node = p.node();
            }
            systemPods.create(n, dcgm, node, fleet.nodes().iterator().next().bootTime().plus(Duration.ofMinutes(2)));
        }
    }

    public SimConfig config() {
        return config;
    }

    public SimClock clock() {
        return clock;
    }

    public Kube kube() {
        return kube;
    }

    public Fleet fleet() {
        return fleet;
    }

    public EventRecorder events() {
        return events;
    }

    public SystemPods systemPods() {
        return systemPods;
    }

    public Scheduler scheduler() {
        return scheduler;
    }

    public JobController jobs() {
        return jobs;
    }

    public Kubelet kubelet() {
        return kubelet;
    }

    public NodeController nodes() {
        return nodes;
    }
}
