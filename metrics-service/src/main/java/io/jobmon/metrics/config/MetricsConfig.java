package io.jobmon.metrics.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** metrics-service: intake, storage, query and alerting settings ({@code jobmon.metrics.*}). */
@ConfigMapping(prefix = "jobmon.metrics")
public interface MetricsConfig {

    Scrape scrape();

    Discovery discovery();

    Storage storage();

    @WithName("remote-write")
    RemoteWrite remoteWrite();

    Jobs jobs();

    Holdings holdings();

    /** The Prometheus-compatible engine of {@code jobmon.metrics.storage=prometheus} (ADR 0036). */
    Prometheus prometheus();

    /** Labels that name a sample's node when a remote-writer does not say it, first present wins. */
    @WithName("node-labels")
    @WithDefault("hostname,Hostname,node,kubernetes_node,nodename,instance")
    List<String> nodeLabels();

    interface Scrape {
        /** Scrape targets at all on this replica (a query-only replica turns it off). */
        @WithDefault("true")
        boolean enabled();

        /** How often every target is scraped. */
        @WithDefault("15s")
        Duration interval();

        /** A scrape slower than this counts as failed (up = 0). */
        @WithDefault("10s")
        Duration timeout();

        /** How long a replica's hold on a target lasts unrenewed; another replica takes it over after that. */
        @WithDefault("45s")
        Duration leaseDuration();

        /** Largest exposition body read from a target. */
        @WithDefault("32")
        int maxBodyMegabytes();

        /** Static targets by name. */
        Map<String, Target> targets();
    }

    interface Target {
        /** The metrics URL, e.g. http://gpu-node-1:9400/metrics. */
        String url();

        /** {@code dcgm-exporter} or {@code node-exporter} (the Prometheus job label). */
        @WithDefault("dcgm-exporter")
        String job();

        /** The node the exporter runs on; absent: the host of the URL. */
        Optional<String> node();

        /** Cluster stamped on every sample. */
        Optional<String> cluster();

        /** GPU pool (resource pool, queue) the node belongs to, for the overview. */
        Optional<String> pool();
    }

    interface Discovery {
        /** How often a cluster's exporter pods are listed. */
        @WithDefault("30s")
        Duration every();

        /** Clusters whose exporter pods are discovered, by name. */
        Map<String, Cluster> clusters();
    }

    interface Cluster {
        /** Path of a kubeconfig file for this cluster; absent: the service's own client. */
        Optional<String> kubeconfig();

        /** Context of the kubeconfig; absent: its current context. */
        Optional<String> context();

        /** Namespace of the exporter pods; absent: all namespaces. */
        Optional<String> namespace();

        /** Label selector of dcgm-exporter pods (the GPU Operator's label). */
        @WithDefault("app=nvidia-dcgm-exporter")
        String dcgmSelector();

        /** dcgm-exporter's metrics port: a number, or the name of a container port of the pod (e.g. {@code metrics}). */
        @WithDefault("9400")
        String dcgmPort();

        /** Label selector of node_exporter pods (the kube-prometheus-stack chart's label). */
        @WithDefault("app.kubernetes.io/name=prometheus-node-exporter")
        String nodeSelector();

        /** node_exporter's metrics port: a number, or the name of a container port of the pod. */
        @WithDefault("9100")
        String nodePort();

        /** Label whose value is the GPU pool: the exporter pod's, else its Node's (cAdvisor: the Node's); absent: no pool. */
        Optional<String> poolLabel();

        /**
         * The kubelets' cAdvisor per node: {@code proxy} (through the API server, the client's credentials),
         * {@code kubelet} (directly, the ServiceAccount token) or {@code off} (ADR 0030).
         */
        @WithDefault("proxy")
        String cadvisor();

        /** Scheme of the kubelet's port in {@code kubelet} mode ({@code http} only for a simulated cluster). */
        @WithDefault("https")
        String kubeletScheme();

        /** The bearer token sent to a kubelet in {@code kubelet} mode. */
        @WithDefault("/var/run/secrets/kubernetes.io/serviceaccount/token")
        String kubeletTokenFile();

        /** The CA a kubelet's serving certificate is checked against in {@code kubelet} mode. */
        @WithDefault("/var/run/secrets/kubernetes.io/serviceaccount/ca.crt")
        String kubeletCaFile();

        /** Accept any kubelet certificate (self-signed serving certificates), as Prometheus' insecure_skip_verify. */
        @WithDefault("false")
        boolean kubeletInsecureSkipVerify();
    }

    interface Storage {
        /** {@code jobmon.metrics.storage}: where samples live, {@code builtin} (PostgreSQL) or {@code prometheus}. */
        @io.smallrye.config.WithParentName
        @WithDefault("builtin")
        Engine engine();

        /** Days of raw samples kept (full resolution). */
        @WithDefault("3")
        int rawRetentionDays();

        /** Days of 1-minute rollups kept. */
        @WithName("rollup-1m-retention-days")
        @WithDefault("30")
        int rollup1mRetentionDays();

        /** Days of 1-hour rollups kept. */
        @WithName("rollup-1h-retention-days")
        @WithDefault("365")
        int rollup1hRetentionDays();

        /** A window is compacted this long after its end (late samples of a scrape still arrive). */
        @WithDefault("5m")
        Duration compactionGrace();

        /** How often compaction looks for closed windows. */
        @WithDefault("30s")
        Duration compactEvery();

        /** Days of partitions created ahead by the daily maintenance. */
        @WithDefault("2")
        int partitionsAhead();

        /** Series ids a consumer keeps in memory. */
        @WithDefault("2000000")
        int seriesCache();

        /**
         * Megabytes of decoded chunks, rollups and head blocks kept in memory for charts (0: none, every read
         * decodes).
         */
        @WithDefault("256")
        int readCacheMegabytes();
    }

    interface RemoteWrite {
        /** Realm role a remote-writer's token must carry (service-to-service; plain users and the read-only platform
         * identity, role {@code service}, get 403). */
        @WithDefault("metrics-writer")
        String role();

        /** Samples per Kafka record (a record is one node's share of a request). */
        @WithDefault("2000")
        int samplesPerRecord();
    }

    interface Jobs {
        /** A job's summary is computed this long after it ended (its last samples still arrive). */
        @WithDefault("2m")
        Duration summaryDelay();

        /** A GPU below this utilisation (percent) for {@link #idleFor()} is idle. */
        @WithDefault("5")
        double idleBelowPercent();

        /** How long a GPU must stay below the threshold to count as idle. */
        @WithDefault("10m")
        Duration idleFor();

        /** How often the per-job gauges on /q/metrics are refreshed. */
        @WithDefault("30s")
        Duration gaugesEvery();

        /** How often finished jobs' summaries are written (a Quarkus scheduler period; {@code off}: never). */
        @WithDefault("30s")
        String summariesEvery();
    }

    /** Which pod held which GPU when, from dcgm-exporter's pod labels (ADR 0009). */
    interface Holdings {
        /** A holding ends when the node's samples run this long past its last labelled sample without another. */
        @WithDefault("5m")
        Duration gap();
    }

    /** Where samples live (ADR 0036). */
    enum Engine {
        BUILTIN, PROMETHEUS
    }

    /** A Prometheus-compatible engine (Prometheus, VictoriaMetrics, Thanos, Mimir): its query and remote-write URLs. */
    interface Prometheus {
        /** Base URL of the query API, e.g. http://127.0.0.1:8428 (required in {@code prometheus} mode). */
        Optional<String> url();

        /** Where samples are forwarded by remote-write; absent: {@code <url>/api/v1/write}. */
        @WithName("remote-write-url")
        Optional<String> remoteWriteUrl();

        /** The label that names a series' node (added on forwarding when a sample has none). */
        @WithDefault("node")
        String nodeLabel();

        /** Long ranges are read in splits of this length, side by side. */
        @WithDefault("1d")
        Duration split();

        /** Engine requests of one read in flight at once. */
        @WithDefault("4")
        int concurrency();

        /** An engine request slower than this fails. */
        @WithDefault("30s")
        Duration timeout();

        /** Samples per remote-write request. */
        @WithDefault("50000")
        int samplesPerWrite();

        /**
         * Samples older than this before now are settled: what the engine answered for them is kept in memory for
         * the next chart (ADR 0044); a sample jobmon forwards later than this sends a change notice.
         */
        @WithName("settled-after")
        @WithDefault("2m")
        Duration settledAfter();

        /**
         * A job's view (its series found in the engine) is read again after this at the latest, even without a change
         * notice: series another writer (a platform Prometheus) sends to the engine fire none (ADR 0057).
         */
        @WithName("view-refresh")
        @WithDefault("5m")
        Duration viewRefresh();
    }
}
