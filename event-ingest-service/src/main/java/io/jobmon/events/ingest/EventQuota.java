package io.jobmon.events.ingest;

import io.jobmon.events.k8s.EventView;
import java.time.Instant;
import java.util.Map;

/**
 * The per-job event quota, so that one crash-looping pod cannot flood the store: for each job, object (pod or
 * Job, and container) and reason, the first {@code keepFirst} event objects are kept, then only the latest one;
 * the objects in between are counted (events and occurrences) on the quota row instead of stored. An update of a
 * kept event object (its {@code count} grows) updates it in place.
 */
public final class EventQuota {

    /** What to do with an incoming event. */
    public sealed interface Decision {
    }

    /** Store (insert or update in place) the event. */
    public record Store() implements Decision {
    }

    /** Store the event as the new latest and delete the previous latest, now counted. */
    public record Replace(String evictedUid, Instant evictedCreated) implements Decision {
    }

    /** Count the event, do not store it: older than the latest kept one. */
    public record Count() implements Decision {
    }

    /** An already counted event object seen again with no new occurrence: nothing changes. */
    public record Unchanged() implements Decision {
    }

    private static final Store STORE = new Store();
    private static final Count COUNT = new Count();
    private static final Unchanged UNCHANGED = new Unchanged();

    private final int keepFirst;
    private final Map<String, QuotaRow> rows;

    /** @param rows the loaded quota rows of the batch's jobs, by {@link QuotaRow#key}; new rows are added to it */
    public EventQuota(int keepFirst, Map<String, QuotaRow> rows) {
        this.keepFirst = Math.max(keepFirst, 1);
        this.rows = rows;
    }

    public Decision admit(String jobId, EventView e) {
        String reason = e.reason() == null ? "" : e.reason();
        QuotaRow row = rows.computeIfAbsent(QuotaRow.key(jobId, e.objectKey(), reason),
                k -> QuotaRow.empty(jobId, e.objectKey(), reason));
        if (row.firstUids.contains(e.uid())) {
            return STORE;
        }
        if (e.uid().equals(row.latestUid)) {
            row.latestTime = e.lastTime();
            row.latestCount = e.count();
            row.dirty = true;
            return STORE;
        }
        Integer counted = row.recent.get(e.uid());
        if (counted != null) {
            if (e.count() <= counted) {
                return UNCHANGED;
            }
            row.omittedOccurrences += e.count() - counted;
            row.remember(e.uid(), e.count());
            row.dirty = true;
            return COUNT;
        }
        row.dirty = true;
        if (row.firstUids.size() < keepFirst) {
            row.firstUids.add(e.uid());
            return STORE;
        }
        if (row.latestUid == null) {
            makeLatest(row, e);
            return STORE;
        }
        if (row.latestTime != null && e.lastTime().isBefore(row.latestTime)) {
            row.omittedEvents++;
            row.omittedOccurrences += e.count();
            row.remember(e.uid(), e.count());
            return COUNT;
        }
        Replace replace = new Replace(row.latestUid, row.latestCreated);
        row.omittedEvents++;
        row.omittedOccurrences += row.latestCount;
        row.remember(row.latestUid, row.latestCount);
        makeLatest(row, e);
        return replace;
    }

    private static void makeLatest(QuotaRow row, EventView e) {
        row.latestUid = e.uid();
        row.latestCreated = e.createdAt();
        row.latestTime = e.lastTime();
        row.latestCount = e.count();
    }

    public Map<String, QuotaRow> rows() {
        return rows;
    }
}
