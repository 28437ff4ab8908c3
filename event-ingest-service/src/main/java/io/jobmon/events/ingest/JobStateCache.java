package io.jobmon.events.ingest;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.jobmon.events.config.EventsConfig;
import io.jobmon.events.status.JobModel;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * The jobs this consumer applied last, as it stored them: their state, pods and event quota, with the version
 * of the row written. A batch takes its jobs out, locks their rows, and reloads only those whose stored version
 * is not the one kept here (another consumer or a stop request wrote them since, or retention forgot them); the
 * jobs go back in only after the batch committed. The store stays the truth: this saves reading it again. Bounded
 * by a Caffeine cache of {@code jobmon.events.state-cache-jobs} jobs (evicting the least likely to be applied again).
 */
@ApplicationScoped
public class JobStateCache {

    /** One job as stored at {@code version}. */
    public record Entry(JobModel job, Map<String, QuotaRow> quota, long version) {
    }

    private final int capacity;
    /** Evictions run on the thread that puts (no pool of Caffeine's own). */
    private final Cache<String, Entry> entries;

    public JobStateCache(EventsConfig config) {
        this.capacity = config.stateCacheJobs();
        this.entries = Caffeine.newBuilder().maximumSize(Math.max(0, capacity)).executor(Runnable::run).build();
    }

    /** Removes and returns the entries of these jobs that are kept: a batch owns them until {@link #put}. */
    public Map<String, Entry> take(Collection<String> jobIds) {
        Map<String, Entry> out = new HashMap<>();
        for (String id : jobIds) {
            Entry e = entries.asMap().remove(id);
            if (e != null) {
                out.put(id, e);
            }
        }
        return out;
    }

    /** Whether this job is kept (so its row exists, unless retention removed it since). */
    public boolean holds(String jobId) {
        return entries.asMap().containsKey(jobId);
    }

    /** Keeps committed jobs (the newer version wins); past the capacity the cache evicts. */
    public void put(Collection<Entry> committed) {
        if (capacity <= 0) {
            return;
        }
        for (Entry e : committed) {
            entries.asMap().merge(e.job().jobId(), e, (old, neu) -> neu.version() >= old.version() ? neu : old);
        }
    }

    public int size() {
        entries.cleanUp();
        return (int) entries.estimatedSize();
    }

    /** Groups a batch's quota rows (by {@link QuotaRow#key}) by job, keeping their keys (not built again). */
    static Map<String, Map<String, QuotaRow>> byJob(Map<String, QuotaRow> rows) {
        Map<String, Map<String, QuotaRow>> out = new HashMap<>();
        for (Map.Entry<String, QuotaRow> e : rows.entrySet()) {
            out.computeIfAbsent(e.getValue().jobId, k -> new HashMap<>()).put(e.getKey(), e.getValue());
        }
        return out;
    }
}
