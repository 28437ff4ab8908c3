package io.jobmon.jobs.alerts;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.ext.web.client.WebClient;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * How many alerts fire on a job: Alertmanager's v2 API ({@code GET /api/v2/alerts?filter=job_id="<id>"}), the active
 * ones no silence or inhibition hides. A short timeout and a few seconds' cache per job keep the job detail fast;
 * Alertmanager unreachable, answering an error or not configured is an unknown count (empty), never a failed detail.
 */
@ApplicationScoped
public class FiringAlerts {

    private static final Logger LOG = Logger.getLogger(FiringAlerts.class);

    private final WebClient client;
    private final Optional<String> base;
    private final long timeoutMs;
    private final Cache<String, Optional<Integer>> counts;

    public FiringAlerts(Vertx vertx, AlertsConfig config) {
        this.timeoutMs = config.timeout().toMillis();
        this.client = WebClient.create(vertx, new WebClientOptions().setConnectTimeout((int) timeoutMs)
                .setUserAgent("jobmon-job-service"));
        this.base = config.alertmanagerUrl().filter(u -> !u.isBlank())
                .map(u -> u.endsWith("/") ? u.substring(0, u.length() - 1) : u);
        this.counts = Caffeine.newBuilder().maximumSize(10_000).expireAfterWrite(config.cacheFor()).build();
    }

    @PreDestroy
    void close() {
        client.close();
    }

    /** The job's firing alerts; empty when Alertmanager is not configured or cannot tell now. */
    public Uni<Optional<Integer>> count(String jobId) {
        if (base.isEmpty()) {
            return Uni.createFrom().item(Optional.empty());
        }
        Optional<Integer> kept = counts.getIfPresent(jobId);
        if (kept != null) {
            return Uni.createFrom().item(kept);
        }
        String filter = "job_id=\"" + jobId.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
        return client.getAbs(base.get() + "/api/v2/alerts").addQueryParam("filter", filter)
                .addQueryParam("silenced", "false").addQueryParam("inhibited", "false").timeout(timeoutMs).send()
                .map(r -> {
                    if (r.statusCode() != 200) {
                        LOG.debugf("Alertmanager answered %d for job %s", r.statusCode(), jobId);
                        return Optional.<Integer>empty();
                    }
                    int n = 0;
                    for (Object o : r.bodyAsJsonArray() == null ? new JsonArray() : r.bodyAsJsonArray()) {
                        if (o instanceof JsonObject a
                                && "active".equals(a.getJsonObject("status", new JsonObject()).getString("state"))) {
                            n++;
                        }
                    }
                    return Optional.of(n);
                })
                .onFailure().recoverWithItem(e -> {
                    LOG.debugf("Alertmanager unreachable for job %s: %s", jobId, e.getMessage());
                    return Optional.empty();
                })
                .invoke(c -> counts.put(jobId, c));
    }
}
