package io.jobmon.events.ingest;

import io.jobmon.contracts.messaging.OffsetRepository;
import io.jobmon.contracts.outbox.OutboxEntry;
import io.jobmon.events.config.EventsConfig;
import io.jobmon.events.status.JobModel;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Applies a batch of decoded {@code jobmon.k8s.raw} records in one transaction: the partitions' applied offsets
 * (locked), the jobs (locked), pods, events, quota, job states, the outbox, and the new offsets. Records at
 * offsets already applied are skipped, so a batch re-read after a crash changes nothing twice. A failure is the
 * caller's to retry ({@code RawConsumer}, under the suite's consumer rule): the batch's jobs kept in memory are
 * taken out of the cache first, so a retry reads them again.
 */
@ApplicationScoped
public class IngestService {

    /**
     * The outcome of a batch: what changed, records already applied, and the transitions committed to the outbox,
     * claimed by this instance for it to publish ({@link StatusPublisher}).
     */
    public record Result(BatchWrites writes, int replayed, List<JobStateCache.Entry> committed,
            List<OutboxEntry> transitions) {
    }

    private final Pool pool;
    private final OffsetRepository offsets;
    private final JobStateRepository jobs;
    private final QuotaRepository quotas;
    private final StoreRepository store;
    private final StatusOutbox outbox;
    private final EventPartitions partitions;
    private final JobResolver resolver;
    private final JobStateCache cache;
    private final EventsConfig config;

    public IngestService(Pool pool, OffsetRepository offsets, JobStateRepository jobs, QuotaRepository quotas,
            StoreRepository store, StatusOutbox outbox, EventPartitions partitions, JobResolver resolver,
            JobStateCache cache, EventsConfig config) {
        this.pool = pool;
        this.offsets = offsets;
        this.jobs = jobs;
        this.quotas = quotas;
        this.store = store;
        this.outbox = outbox;
        this.partitions = partitions;
        this.resolver = resolver;
        this.cache = cache;
        this.config = config;
    }

    /**
     * @param topic the topic the records came from (offsets are kept per topic and partition)
     * @param records valid records in partition order
     * @param lastOffsets the highest offset of the batch per partition, invalid records included
     */
    public Uni<Result> apply(String topic, List<RawRecord> records, Map<Integer, Long> lastOffsets) {
        Instant retentionStart = partitions.retentionStart();
        // One time per day of the batch's events (the partitions are per day).
        Map<Long, Instant> days = new HashMap<>();
        for (RawRecord r : records) {
            if (r.event() != null && !r.event().createdAt().isBefore(retentionStart)) {
                days.putIfAbsent(Math.floorDiv(r.event().createdAt().getEpochSecond(), 86_400L), r.event().createdAt());
            }
        }
        return partitions.ensureFor(days.values())
                .chain(() -> resolver.resolve(records))
                .chain(resolved -> pool.withConnection(conn -> inTransaction(conn,
                        applyIn(conn, topic, resolved, lastOffsets, retentionStart))))
                .invoke(result -> cache.put(result.committed()));
    }

    /**
     * The batch in one transaction, its BEGIN sent with the batch's locks and its COMMIT with its writes (the
     * connection pipelines them): two round trips fewer than {@code withTransaction}'s. A statement that fails
     * aborts the transaction, and the COMMIT behind it then rolls back (PostgreSQL answers ROLLBACK); the failure
     * is the statement's. A failure before the COMMIT was sent rolls back explicitly.
     */
    private static Uni<Result> inTransaction(SqlConnection conn, Uni<Result> batch) {
        return Uni.combine().all().unis(conn.query("BEGIN").execute(), batch).asTuple().map(both -> both.getItem2())
                .onFailure().call(() -> conn.query("ROLLBACK").execute().onFailure().recoverWithNull());
    }

    private Uni<Result> applyIn(SqlConnection conn, String topic, List<RawRecord> records, Map<Integer, Long> last,
            Instant retentionStart) {
        // The partitions' offsets first, then every job of the batch (a job of records already applied is locked
        // for nothing), always in this order: two consumers never wait for each other in a circle.
        Set<String> ids = new LinkedHashSet<>();
        records.stream().filter(r -> r.jobId() != null).forEach(r -> ids.add(r.jobId()));
        // Both are sent together (pipelined, run in this order): one round trip for every lock of the batch.
        return Uni.combine().all().unis(offsets.lock(conn, topic, last.keySet()), jobs.lockVersions(conn, ids, cache::holds))
                .asTuple().chain(locked -> {
            Map<Integer, Long> next = locked.getItem1();
            Map<String, Long> versions = locked.getItem2();
            List<RawRecord> fresh = new ArrayList<>();
            for (RawRecord r : records) {
                if (r.offset() >= next.getOrDefault(r.partition(), 0L)) {
                    fresh.add(r);
                }
            }
            int replayed = records.size() - fresh.size();
            Map<Integer, Long> newNext = new HashMap<>();
            last.forEach((p, o) -> newNext.put(p, o + 1));
            return load(conn, versions).chain(state -> {
                EventQuota quota = new EventQuota(config.quotaFirstPerReason(), state.quota());
                BatchWrites w = new BatchApplier(state.jobs(), quota, retentionStart).apply(fresh);
                for (QuotaRow q : quota.rows().values()) {
                    if (q.dirty) {
                        state.jobs().get(q.jobId).markChanged(); // the quota is part of the job's version
                    }
                }
                // Every write of the batch goes out at once, in this order, and is awaited together.
                List<OutboxEntry> owned = new ArrayList<>();
                return Uni.combine().all().unis(write(conn, w, state.jobs(), quota, topic, newNext, owned)).discardItems()
                        .map(x -> new Result(w, replayed, committed(state.jobs(), quota, versions), owned));
            });
        });
    }

    /** The batch's jobs and their quota rows: kept ones whose version still matches, the others read. */
    private record State(Map<String, JobModel> jobs, Map<String, QuotaRow> quota) {
    }

    private Uni<State> load(SqlConnection conn, Map<String, Long> versions) {
        Map<String, JobModel> models = new HashMap<>();
        Map<String, QuotaRow> quota = new HashMap<>();
        List<String> stale = new ArrayList<>();
        Map<String, JobStateCache.Entry> kept = cache.take(versions.keySet());
        versions.forEach((id, version) -> {
            JobStateCache.Entry e = kept.get(id);
            if (e != null && e.version() == version) {
                models.put(id, e.job());
                quota.putAll(e.quota());
            } else {
                stale.add(id);
            }
        });
        if (stale.isEmpty()) {
            return Uni.createFrom().item(new State(models, quota));
        }
        List<String> written = stale.stream().filter(id -> versions.get(id) > 0).toList();
        return Uni.combine().all().unis(jobs.load(conn, stale), quotas.load(conn, stale, written)).asTuple().map(both -> {
            models.putAll(both.getItem1());
            quota.putAll(both.getItem2());
            return new State(models, quota);
        });
    }

    /**
     * What the cache keeps once the batch committed (called after the batch's writes): every job at the version
     * its row now has, with nothing left to write.
     */
    private static List<JobStateCache.Entry> committed(Map<String, JobModel> jobs, EventQuota quota,
            Map<String, Long> versions) {
        Map<String, Map<String, QuotaRow>> rows = JobStateCache.byJob(quota.rows());
        quota.rows().values().forEach(q -> q.dirty = false);
        List<JobStateCache.Entry> out = new ArrayList<>(jobs.size());
        for (JobModel job : jobs.values()) {
            long version = versions.getOrDefault(job.jobId(), 0L) + (job.changed() ? 1 : 0);
            job.markSaved();
            out.add(new JobStateCache.Entry(job, rows.getOrDefault(job.jobId(), Map.of()), version));
        }
        return out;
    }

    /**
     * The batch's statements and the COMMIT ({@link #inTransaction}), each subscribed (so sent) in this order when
     * the caller combines them.
     */
    private List<Uni<Void>> write(SqlConnection conn, BatchWrites w, Map<String, JobModel> loaded, EventQuota quota,
            String topic, Map<Integer, Long> next, List<OutboxEntry> owned) {
        return List.of(store.evict(conn, w.evictions()),
                store.pods(conn, List.copyOf(w.pods().values())),
                store.events(conn, List.copyOf(w.events().values())),
                store.nodeEvents(conn, List.copyOf(w.nodeEvents().values())),
                quotas.save(conn, quota.rows().values()),
                jobs.save(conn, loaded.values()),
                outbox.append(conn, w.transitions()).invoke(owned::addAll).replaceWithVoid(),
                offsets.save(conn, topic, next),
                conn.query("COMMIT").execute().replaceWithVoid());
    }
}
