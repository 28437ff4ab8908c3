package io.jobmon.metrics.scrape;

import io.jobmon.contracts.lease.LeaseTable;
import io.jobmon.metrics.config.MetricsConfig;
import io.jobmon.metrics.ingest.IngestMetrics;
import io.jobmon.metrics.ingest.SamplesPublisher;
import io.jobmon.metrics.ingest.SeriesBuilder;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * Every scrape interval: announces this replica, takes (or keeps) the leases of its fair share of the targets
 * (all targets / live replicas, rounded up) from those no other replica holds, gives up any beyond it, scrapes what
 * it holds, publishes the samples on {@code jobmon.metrics.samples} and records each target's health. With several
 * replicas each target is scraped by exactly one; a replica that stops renewing loses its targets to the others
 * after a lease duration.
 */
@ApplicationScoped
public class ScrapeManager {

    private static final Logger LOG = Logger.getLogger(ScrapeManager.class);
    public static final String STATIC = "static";

    private final MetricsConfig config;
    private final TargetRepository targets;
    private final Leases leases;
    private final Scraper scraper;
    private final SamplesPublisher publisher;
    private final ScrapeHealth health;
    private final IngestMetrics metrics;
    private final String holder;
    private final Set<String> held = ConcurrentHashMap.newKeySet();

    public ScrapeManager(MetricsConfig config, TargetRepository targets, Leases leases, Scraper scraper,
            SamplesPublisher publisher, ScrapeHealth health, IngestMetrics metrics) {
        this.config = config;
        this.targets = targets;
        this.leases = leases;
        this.scraper = scraper;
        this.publisher = publisher;
        this.health = health;
        this.metrics = metrics;
        this.holder = LeaseTable.newHolder();
    }

    void onStart(@Observes StartupEvent start) {
        targets.replace(STATIC, staticTargets(config)).await().atMost(Duration.ofSeconds(30));
    }

    void onStop(@Observes ShutdownEvent stop) {
        try {
            leases.leave(holder).await().atMost(Duration.ofSeconds(2));
        } catch (RuntimeException e) {
            LOG.debugf("leases not released (%s), they expire", e.getMessage());
        }
    }

    static List<ScrapeTarget> staticTargets(MetricsConfig config) {
        List<ScrapeTarget> out = new ArrayList<>();
        for (Map.Entry<String, MetricsConfig.Target> e : config.scrape().targets().entrySet()) {
            MetricsConfig.Target t = e.getValue();
            String node = t.node().orElseGet(() -> URI.create(t.url()).getHost());
            out.add(new ScrapeTarget(e.getKey(), t.url(), t.job(), node, t.cluster().orElse(null), t.pool().orElse(null),
                    STATIC));
        }
        return out;
    }

    @Scheduled(every = "${jobmon.metrics.scrape.interval:15s}", delayed = "2s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> scheduled() {
        if (!config.scrape().enabled()) {
            return Uni.createFrom().voidItem();
        }
        return round().onFailure().invoke(e -> LOG.warnf("scrape round failed: %s", e.getMessage()))
                .onFailure().recoverWithNull().replaceWithVoid();
    }

    /** One round: leases, then scrapes; returns the results of this replica's targets. */
    public Uni<List<Scraper.Result>> round() {
        Duration lease = config.scrape().leaseDuration();
        return leases.heartbeat(holder, lease).chain(live -> targets.all().chain(all -> leases.heldByOthers(holder)
                .chain(others -> {
                    int share = (all.size() + live - 1) / Math.max(1, live);
                    Set<String> want = new TreeSet<>();
                    List<String> free = new ArrayList<>();
                    for (ScrapeTarget t : all) {
                        if (held.contains(t.lease())) {
                            want.add(t.lease());
                        } else if (!others.contains(t.lease())) {
                            free.add(t.lease());
                        }
                    }
                    List<String> excess = new ArrayList<>();
                    while (want.size() > share) {
                        String last = ((TreeSet<String>) want).pollLast();
                        excess.add(last);
                    }
                    for (String f : free) {
                        if (want.size() >= share) {
                            break;
                        }
                        want.add(f);
                    }
                    return leases.release(excess, holder).chain(() -> leases.acquire(want, holder, lease)).map(got -> {
                        held.clear();
                        held.addAll(got);
                        return all.stream().filter(t -> got.contains(t.lease())).toList();
                    });
                })))
                .chain(mine -> {
                    health.keepOnly(mine.stream().map(ScrapeTarget::id).collect(java.util.stream.Collectors.toSet()));
                    return Multi.createFrom().iterable(mine).onItem().transformToUniAndMerge(this::scrapeAndPublish)
                            .collect().asList();
                })
                .call(results -> health.record(holder, results));
    }

    Uni<Scraper.Result> scrapeAndPublish(ScrapeTarget t) {
        return scraper.scrape(t).call(r -> r.samples().isEmpty() ? Uni.createFrom().voidItem()
                : publisher.publish(t.node(), SeriesBuilder.of(r.samples()), config.remoteWrite().samplesPerRecord())
                        .invoke(() -> metrics.scraped(r.samples().size())));
    }

    /** Lease names this replica holds (tests, admin). */
    public Set<String> held() {
        return Set.copyOf(held);
    }

    public String holder() {
        return holder;
    }
}
