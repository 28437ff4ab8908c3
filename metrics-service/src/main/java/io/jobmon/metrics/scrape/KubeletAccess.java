package io.jobmon.metrics.scrape;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.jobmon.metrics.config.MetricsConfig;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.core.http.HttpClient;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How a cAdvisor target of a discovered cluster is reached (ADR 0030): in {@code proxy} mode through the API server
 * with the cluster client's own credentials and TLS settings (fabric8's HTTP client), in {@code kubelet} mode directly
 * with the ServiceAccount token (read on every scrape: a projected token is rotated) and the cluster's CA.
 */
@ApplicationScoped
public class KubeletAccess {

    /** A fetched exposition. */
    record Body(String contentType, String text) {
    }

    private final MetricsConfig config;
    private final ClusterClients clients;
    private final Vertx vertx;
    private final Map<String, HttpClient> kubelets = new ConcurrentHashMap<>();

    public KubeletAccess(MetricsConfig config, ClusterClients clients, Vertx vertx) {
        this.config = config;
        this.clients = clients;
        this.vertx = vertx;
    }

    @PreDestroy
    void close() {
        kubelets.values().forEach(HttpClient::closeAndForget);
    }

    /** The cluster configuration of a discovered cAdvisor target; null for any other target. */
    MetricsConfig.Cluster clusterOf(ScrapeTarget t) {
        if (!Cadvisor.JOB.equals(t.job()) || t.source() == null || !t.source().startsWith("k8s:")) {
            return null;
        }
        return config.discovery().clusters().get(t.source().substring(4));
    }

    /** Through the API server's node proxy, with the cluster client's credentials; a body over {@code maxBytes} fails. */
    Uni<Body> viaProxy(ScrapeTarget t, long maxBytes) {
        KubernetesClient client = clients.of(t.source().substring(4));
        io.fabric8.kubernetes.client.http.HttpClient http = client.getHttpClient();
        HttpRequest request = http.newHttpRequestBuilder().uri(t.url()).header("Accept", Scraper.ACCEPT).build();
        return Uni.createFrom().completionStage(() -> http.sendAsync(request, String.class)).map(resp -> {
            if (resp.code() != 200) {
                throw new IllegalStateException("HTTP " + resp.code());
            }
            if (resp.body() != null && resp.body().length() > maxBytes) {
                throw new IllegalStateException("body larger than " + maxBytes + " bytes");
            }
            return new Body(resp.header("Content-Type"), resp.body());
        });
    }

    /** The kubelet's HTTP client of a cluster: its CA, or any certificate when configured so. */
    HttpClient kubeletClient(String cluster, MetricsConfig.Cluster c) {
        return kubelets.computeIfAbsent(cluster, n -> {
            HttpClientOptions o = new HttpClientOptions().setConnectTimeout((int) config.scrape().timeout().toMillis())
                    .setKeepAlive(true).setMaxPoolSize(8);
            if (c.kubeletInsecureSkipVerify()) {
                o.setTrustAll(true).setVerifyHost(false);
            } else if (Files.isReadable(Path.of(c.kubeletCaFile()))) {
                o.setTrustOptions(new PemTrustOptions().addCertPath(c.kubeletCaFile())).setVerifyHost(false);
            }
            return vertx.createHttpClient(o);
        });
    }

    /** The ServiceAccount token's header value; null without a readable token file (then no header is sent). */
    static String bearer(MetricsConfig.Cluster c) {
        Path p = Path.of(c.kubeletTokenFile());
        if (!Files.isReadable(p)) {
            return null;
        }
        try {
            return "Bearer " + Files.readString(p).trim();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
