package io.jobmon.metrics.scrape;

import io.jobmon.contracts.events.MetricSamples;
import io.jobmon.metrics.config.MetricsConfig;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.core.buffer.Buffer;
import io.vertx.mutiny.core.http.HttpClient;
import io.vertx.mutiny.core.http.HttpClientResponse;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Scrapes one target as Prometheus does: asks for OpenMetrics or the text format, parses what comes back by its
 * content type, and adds the target's labels ({@code job}, {@code instance}, {@code cluster}, {@code pool}); an
 * exposed label of the same name is kept as {@code exported_<name>} (honor_labels off). Samples without a
 * timestamp take the scrape's time (cAdvisor's carry their own); NaN samples are dropped, and of a cAdvisor all but
 * the kept families of pods ({@link Cadvisor}).
 */
@ApplicationScoped
public class Scraper {

    static final String ACCEPT = "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5,*/*;q=0.1";

    /** What one scrape gave. */
    public record Result(ScrapeTarget target, boolean up, double seconds, List<MetricSamples.Sample> samples,
            String error) {
    }

    private final Vertx vertx;
    private final HttpClient client;
    private final MetricsConfig config;

    private final KubeletAccess kubelets;

    public Scraper(Vertx vertx, MetricsConfig config, KubeletAccess kubelets) {
        this.vertx = vertx;
        this.config = config;
        this.kubelets = kubelets;
        this.client = vertx.createHttpClient(new HttpClientOptions()
                .setConnectTimeout((int) config.scrape().timeout().toMillis()).setKeepAlive(true).setMaxPoolSize(8));
    }

    @PreDestroy
    void close() {
        client.closeAndForget();
    }

    public Uni<Result> scrape(ScrapeTarget target) {
        long start = System.nanoTime();
        long scrapeMs = System.currentTimeMillis();
        long maxBytes = config.scrape().maxBodyMegabytes() * 1024L * 1024L;
        return fetch(target, maxBytes)
                .chain(r -> vertx.executeBlocking(Uni.createFrom().item(() -> samples(target, r.contentType(),
                        r.text(), scrapeMs))))
                .map(samples -> new Result(target, true, seconds(start), samples, null))
                .onFailure().recoverWithItem(e -> new Result(target, false, seconds(start), List.of(),
                        e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
    }

    /** The target's exposition: a discovered cAdvisor through its cluster ({@link KubeletAccess}), else plain GET. */
    private Uni<KubeletAccess.Body> fetch(ScrapeTarget target, long maxBytes) {
        MetricsConfig.Cluster cluster = kubelets.clusterOf(target);
        if (cluster != null && Cadvisor.PROXY.equals(cluster.cadvisor())) {
            return kubelets.viaProxy(target, maxBytes).ifNoItem().after(config.scrape().timeout()).fail();
        }
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.GET).setAbsoluteURI(target.url())
                .putHeader("Accept", ACCEPT).putHeader("X-Prometheus-Scrape-Timeout-Seconds",
                        String.valueOf(config.scrape().timeout().toSeconds()))
                .setTimeout(config.scrape().timeout().toMillis());
        HttpClient http = client;
        if (cluster != null) {
            http = kubelets.kubeletClient(target.source().substring(4), cluster);
            String bearer = KubeletAccess.bearer(cluster);
            if (bearer != null) {
                options.putHeader("Authorization", bearer);
            }
        }
        return http.request(options).chain(req -> req.send()).chain(resp -> body(resp, maxBytes)
                .map(body -> new KubeletAccess.Body(resp.getHeader("Content-Type"), body.toString())));
    }

    private static Uni<Buffer> body(HttpClientResponse resp, long maxBytes) {
        if (resp.statusCode() != 200) {
            return Uni.createFrom().failure(new IllegalStateException("HTTP " + resp.statusCode()));
        }
        String length = resp.getHeader("Content-Length");
        if (length != null && Long.parseLong(length.trim()) > maxBytes) {
            return Uni.createFrom().failure(new IllegalStateException("body larger than " + maxBytes + " bytes"));
        }
        return resp.body();
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    /** The exposition's samples with the target's labels. */
    static List<MetricSamples.Sample> samples(ScrapeTarget target, String contentType, String body, long scrapeMs) {
        boolean om = contentType != null && contentType.startsWith("application/openmetrics-text");
        ExpositionParser.Result parsed = ExpositionParser.parse(body, om);
        Map<String, String> targetLabels = targetLabels(target);
        List<MetricSamples.Sample> out = new ArrayList<>(parsed.samples().size());
        boolean cadvisor = Cadvisor.JOB.equals(target.job());
        for (ExpositionParser.Sample s : parsed.samples()) {
            if (Double.isNaN(s.value()) || cadvisor && !Cadvisor.kept(s.name(), s.labels())) {
                continue;
            }
            Map<String, String> labels = new LinkedHashMap<>(s.labels().size() + targetLabels.size());
            s.labels().forEach((k, v) -> labels.put(targetLabels.containsKey(k) ? "exported_" + k : k, v));
            labels.putAll(targetLabels);
            out.add(new MetricSamples.Sample(s.name(), labels, s.timestampMs() != null ? s.timestampMs() : scrapeMs,
                    s.value()));
        }
        return out;
    }

    static Map<String, String> targetLabels(ScrapeTarget t) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("job", t.job());
        URI uri = URI.create(t.url());
        m.put("instance", uri.getPort() > 0 ? uri.getHost() + ":" + uri.getPort() : uri.getHost());
        if (t.cluster() != null) {
            m.put("cluster", t.cluster());
        }
        if (t.pool() != null) {
            m.put("pool", t.pool());
        }
        return m;
    }
}
