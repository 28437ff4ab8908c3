package io.jobmon.metrics.scrape;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Scrape health per target: on /q/metrics of the replica that scrapes it ({@code jobmon_scrape_up{target}},
 * {@code jobmon_scrape_duration_seconds{target}}, {@code jobmon_scrape_samples{target}}) and in
 * {@code scrape_health} for the admin API, whichever replica asks.
 */
@ApplicationScoped
public class ScrapeHealth {

    private static final String SAVE = "INSERT INTO scrape_health (target, holder, scraped_at, up, duration_ms, samples, error)"
            + " SELECT t, $2, now(), u, d, s, e FROM unnest($1::text[], $3::bool[], $4::float8[], $5::int[], $6::text[])"
            + " AS x(t, u, d, s, e) ON CONFLICT (target) DO UPDATE SET holder = EXCLUDED.holder,"
            + " scraped_at = EXCLUDED.scraped_at, up = EXCLUDED.up, duration_ms = EXCLUDED.duration_ms,"
            + " samples = EXCLUDED.samples, error = EXCLUDED.error";

    /** The last scrape of a target, as the gauges read it. */
    static final class State {
        volatile double up;
        volatile double seconds;
        volatile double samples;
    }

    private final MeterRegistry registry;
    private final Pool pool;
    private final Map<String, State> states = new ConcurrentHashMap<>();

    public ScrapeHealth(MeterRegistry registry, Pool pool) {
        this.registry = registry;
        this.pool = pool;
    }

    public Uni<Void> record(String holder, List<Scraper.Result> results) {
        for (Scraper.Result r : results) {
            State s = states.computeIfAbsent(r.target().id(), this::register);
            s.up = r.up() ? 1 : 0;
            s.seconds = r.seconds();
            s.samples = r.samples().size();
        }
        if (results.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        int n = results.size();
        String[] ids = new String[n];
        Boolean[] up = new Boolean[n];
        Double[] ms = new Double[n];
        Integer[] samples = new Integer[n];
        String[] errors = new String[n];
        for (int i = 0; i < n; i++) {
            Scraper.Result r = results.get(i);
            ids[i] = r.target().id();
            up[i] = r.up();
            ms[i] = r.seconds() * 1000;
            samples[i] = r.samples().size();
            errors[i] = r.error();
        }
        return pool.preparedQuery(SAVE).execute(Tuple.tuple().addArrayOfString(ids).addValue(holder)
                .addArrayOfBoolean(up).addArrayOfDouble(ms).addArrayOfInteger(samples).addArrayOfString(errors))
                .replaceWithVoid();
    }

    /** Drops the gauges of targets this replica no longer scrapes. */
    public void keepOnly(Set<String> targets) {
        for (String id : Set.copyOf(states.keySet())) {
            if (!targets.contains(id)) {
                states.remove(id);
                Tags tags = Tags.of("target", id);
                for (String name : List.of("jobmon.scrape.up", "jobmon.scrape.duration.seconds", "jobmon.scrape.samples")) {
                    var meter = registry.find(name).tags(tags).meter();
                    if (meter != null) {
                        registry.remove(meter);
                    }
                }
            }
        }
    }

    private State register(String target) {
        State s = new State();
        Gauge.builder("jobmon.scrape.up", s, x -> x.up).tag("target", target)
                .description("1 when the last scrape of the target succeeded").register(registry);
        Gauge.builder("jobmon.scrape.duration.seconds", s, x -> x.seconds).tag("target", target)
                .description("how long the last scrape of the target took").register(registry);
        Gauge.builder("jobmon.scrape.samples", s, x -> x.samples).tag("target", target)
                .description("samples the last scrape of the target gave").register(registry);
        return s;
    }
}
