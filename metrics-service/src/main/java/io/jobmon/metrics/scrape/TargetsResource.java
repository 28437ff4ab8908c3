package io.jobmon.metrics.scrape;

import io.jobmon.contracts.access.Caller;
import io.jobmon.contracts.api.Page;
import io.jobmon.contracts.access.CallerFactory;
import io.jobmon.contracts.i18n.Text;
import io.jobmon.contracts.problem.ApiException;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Admins: every scrape target, where it came from, which replica scrapes it and how its last scrape went. */
@Path("/api/v1/metrics/targets")
@Tag(name = "metrics")
@Produces(MediaType.APPLICATION_JSON)
public class TargetsResource {

    /** A target and its last scrape (null fields: not scraped yet). */
    public record ScrapeTargetView(String id, String url, String job, String node, String cluster, String pool, String source,
            String scrapedBy, Instant lastScrape, Boolean up, Double durationSeconds, Integer samples, String error) {
    }

    private final Pool pool;
    private final JsonWebToken token;

    public TargetsResource(Pool pool, JsonWebToken token) {
        this.pool = pool;
        this.token = token;
    }

    @GET
    @Operation(summary = "Scrape targets with their health (admins): {items}")
    public Uni<Page<ScrapeTargetView>> targets() {
        requireAdmin(CallerFactory.fromToken(token));
        return pool.query("SELECT t.id, t.url, t.job, t.node, t.cluster, t.pool, t.source, h.holder, h.scraped_at, h.up,"
                + " h.duration_ms, h.samples, h.error FROM scrape_target t LEFT JOIN scrape_health h ON h.target = t.id"
                + " ORDER BY t.id").execute().map(rows -> {
                    List<ScrapeTargetView> out = new ArrayList<>();
                    for (Row r : rows) {
                        Double ms = r.getDouble("duration_ms");
                        out.add(new ScrapeTargetView(r.getString("id"), r.getString("url"), r.getString("job"), r.getString("node"),
                                r.getString("cluster"), r.getString("pool"), r.getString("source"), r.getString("holder"),
                                r.getOffsetDateTime("scraped_at") == null ? null : r.getOffsetDateTime("scraped_at").toInstant(),
                                r.getBoolean("up"), ms == null ? null : ms / 1000, r.getInteger("samples"),
                                r.getString("error")));
                    }
                    return Page.last(out);
                });
    }

    /** 403 for anybody but an admin: the scrape targets. */
    public static void requireAdmin(Caller caller) {
        requireAdmin(caller, "metrics.admins-only");
    }

    /** 403 for anybody but an admin, saying what only an admin may see ({@code detail}, a catalogue key). */
    public static void requireAdmin(Caller caller, String detail) {
        if (!caller.isAdmin()) {
            throw ApiException.forbidden(Text.of(detail));
        }
    }
}
