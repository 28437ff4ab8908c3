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
import io.jobmon.sim.control.Replay;
import io.jobmon.sim.telemetry.CadvisorPods;
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
    private final CadvisorPods cgroups;

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
        this.cgroups = new CadvisorPods(fleet);
        kube.onChange(c -> {
            if (c.object() instanceof io.fabric8.kubernetes.api.model.Pod p && !Replay.is(p)) {
                cgroups.observe(p, c.deleted(), clock.now());
            }
        });
    }

    /** Namespaces, PriorityClasses, quotas, the nodes and their system pods (exporters served by {@code exporters}). */
    public void bootstrap(ExporterServers exporters) {
        SimBootstrap.run(kube, config.namespace(), config.quotas());
        java.util.Map<String, ExporterServers.Ports> ports = new java.util.HashMap<>();
        for (SimNode n : fleet.nodes()) {
            ports.put(n.name(), exporters == null ? new ExporterServers.Ports(0, 0) : exporters.serve(n, cgroups));
        }
        // the kubelet's port is the node_exporter endpoint's, which also serves /metrics/cadvisor
        nodes.registerAll(name -> exporters == null ? 10250 : ports.get(name).node());
        for (SimNode n : fleet.nodes()) {
            ExporterServers.Ports p = ports.get(n.name());
            systemPods.create(n, p.dcgm(), p.node(), fleet.nodes().iterator().next().bootTime().plus(Duration.ofMinutes(2)));
        }
    }

    /** The cgroups the nodes' cAdvisors report. */
    public CadvisorPods cgroups() {
        return cgroups;
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
