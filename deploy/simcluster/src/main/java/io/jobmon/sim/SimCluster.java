package io.jobmon.sim;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.jobmon.sim.api.SimApiServer;
import io.jobmon.sim.clock.LoopClock;
import io.jobmon.sim.logs.KafkaLogSink;
import io.jobmon.sim.logs.LogSink;
import io.jobmon.sim.replay.BundlePlayer;
import io.jobmon.sim.telemetry.ExporterServers;
import io.jobmon.sim.telemetry.ReplaySeries;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running sim cluster: its API server (with kubeconfig), the {@link Sim} on a wall-clock {@link LoopClock},
 * informers that feed the sim what others change (job-service's Jobs, deletions), the nodes' exporter endpoints, the
 * log feed, and the janitor that expires events.
 */
public final class SimCluster implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SimCluster.class);

    private final SimConfig config;
    private final LoopClock clock;
    private final SimApiServer api;
    private final KubernetesClient client;
    private final LogSink logs;
    private final ReplaySeries replay = new ReplaySeries();
    private final ExporterServers exporters;
    private final Sim sim;
    private final List<SharedIndexInformer<?>> informers = new ArrayList<>();
    private AdminServer admin;

    private SimCluster(SimConfig config, LogSink sink) {
        this.config = config;
        this.clock = new LoopClock(config.timeScale());
        this.api = SimApiServer.start(config.host(), config.apiPort());
        api.writeKubeconfig(config.kubeconfig(), config.cluster(), config.namespace());
        this.client = api.newClient(config.namespace());
        this.logs = sink != null ? sink : config.kafkaBootstrap() == null ? LogSink.NONE
                : new KafkaLogSink(config.kafkaBootstrap(), config.logsTopic(), config.cluster());
        this.exporters = new ExporterServers(config.host(), config.exporterBasePort(), clock::now, replay);
        this.sim = new Sim(config, clock, client, logs, System.nanoTime());
        api.kubelets(exporters::cadvisor);
    }

    /** Starts everything and returns once the API, the nodes and the exporters are up. */
    public static SimCluster start(SimConfig config) {
        return start(config, null);
    }

    /** Starts with the given log sink instead of the configured one (tests record the lines). */
    public static SimCluster start(SimConfig config, LogSink sink) {
        SimCluster c = new SimCluster(config, sink);
        try {
            c.clock.call(() -> {
                c.sim.bootstrap(c.exporters);
                return null;
            });
            c.inform(c.client.pods().inAnyNamespace().runnableInformer(0));
            c.inform(c.client.batch().v1().jobs().inAnyNamespace().runnableInformer(0));
            c.inform(c.client.nodes().runnableInformer(0));
            c.inform(c.client.resourceQuotas().inAnyNamespace().runnableInformer(0));
            c.inform(c.client.scheduling().v1().priorityClasses().runnableInformer(0));
            for (SharedIndexInformer<?> i : c.informers) {
                i.start().toCompletableFuture().join();
            }
            c.janitor();
            c.admin = new AdminServer(config.host(), config.adminPort(), c.player(), c.exporters::ports);
            c.writeEnv();
            return c;
        } catch (RuntimeException e) {
            c.close();
            throw e;
        }
    }

    private <T extends HasMetadata> void inform(SharedIndexInformer<T> informer) {
        informer.addEventHandler(new ResourceEventHandler<T>() {
            @Override
            public void onAdd(T obj) {
                clock.execute(() -> sim.kube().observed("ADDED", obj));
            }

            @Override
            public void onUpdate(T oldObj, T newObj) {
                clock.execute(() -> sim.kube().observed("MODIFIED", newObj));
            }

            @Override
            public void onDelete(T obj, boolean unknown) {
                clock.execute(() -> sim.kube().observed("DELETED", obj));
            }
        });
        informer.exceptionHandler((started, t) -> {
            LOG.debug("informer: {} (retrying)", t.getMessage());
            return true;
        });
        informers.add(informer);
    }

    private void janitor() {
        clock.schedule(Duration.ofMinutes(10), () -> {
            sim.events().expire(config.eventTtl());
            janitor();
        });
    }

    /** {@code sim.env} in the state folder: what a launcher needs to point services at the sim. */
    private void writeEnv() {
        String exporterList = exporters.ports().entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue().dcgm() + "," + e.getValue().node())
                .collect(Collectors.joining(" "));
        String env = "JOBMON_SIM_API_URL=" + api.url() + "\n"
                + "JOBMON_SIM_ADMIN_URL=http://" + api.url().substring("http://".length(), api.url().lastIndexOf(':'))
                + ":" + admin.port() + "\n"
                + "JOBMON_SIM_KUBECONFIG=" + config.kubeconfig().toAbsolutePath() + "\n"
                + "JOBMON_SIM_CLUSTER=" + config.cluster() + "\n"
                + "JOBMON_SIM_NAMESPACE=" + config.namespace() + "\n"
                + "JOBMON_SIM_EXPORTERS=\"" + exporterList + "\"\n";
        try {
            Files.createDirectories(config.stateDir());
            Files.writeString(config.stateDir().resolve("sim.env"), env);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write sim.env in " + config.stateDir(), e);
        }
    }

    public Sim sim() {
        return sim;
    }

    public LoopClock clock() {
        return clock;
    }

    public SimApiServer api() {
        return api;
    }

    public KubernetesClient client() {
        return client;
    }

    public Map<String, ExporterServers.Ports> exporterPorts() {
        return exporters.ports();
    }

    /** Plays evidence bundles onto this cluster (pods, events, log lines, metric series). */
    public BundlePlayer player() {
        return new BundlePlayer(sim, clock, logs, exporters, replay);
    }

    /** The port of the sim's own HTTP API (health, replay). */
    public int adminPort() {
        return admin.port();
    }

    @Override
    public void close() {
        if (admin != null) {
            admin.close();
        }
        informers.forEach(SharedIndexInformer::stop);
        exporters.close();
        logs.close();
        client.close();
        api.close();
        clock.close();
    }
}
