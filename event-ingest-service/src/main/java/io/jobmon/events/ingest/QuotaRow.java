package io.jobmon.events.ingest;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The event quota of one job, object and reason: which event objects are kept (the first ones and the latest)
 * and how many others were counted instead of stored.
 */
public final class QuotaRow {

    /** Kubernetes keeps events an hour: a relist after a restart resends at most that hour's objects. */
    static final int RECENT_LIMIT = 200;

    final String jobId;
    final String objectKey;
    final String reason;
    final List<String> firstUids;
    String latestUid;
    Instant latestCreated;
    Instant latestTime;
    int latestCount;
    int omittedEvents;
    long omittedOccurrences;
    /** Counted (not kept) event objects of the last while and their counts, so a redelivery or an update of one counts only its new occurrences. */
    final LinkedHashMap<String, Integer> recent;
    boolean dirty;
    /** The row is in {@code event_quota} (read from it, or written): written on every change from then on. */
    boolean stored;

    public QuotaRow(String jobId, String objectKey, String reason, List<String> firstUids, String latestUid,
            Instant latestCreated, Instant latestTime, int latestCount, int omittedEvents, long omittedOccurrences,
            Map<String, Integer> recent) {
        this.jobId = jobId;
        this.objectKey = objectKey;
        this.reason = reason;
        this.firstUids = new ArrayList<>(firstUids);
        this.latestUid = latestUid;
        this.latestCreated = latestCreated;
        this.latestTime = latestTime;
        this.latestCount = latestCount;
        this.omittedEvents = omittedEvents;
        this.omittedOccurrences = omittedOccurrences;
        this.recent = new LinkedHashMap<>(recent);
    }

    /** Remembers a counted object; the oldest are forgotten past {@code RECENT_LIMIT}. */
    void remember(String uid, int count) {
        recent.remove(uid);
        recent.put(uid, count);
        while (recent.size() > RECENT_LIMIT) {
            recent.remove(recent.keySet().iterator().next());
        }
    }

    /**
     * Holds nothing but the first kept event objects, which the {@code event} table holds too, and was never stored:
     * not written (one row per event object otherwise), rebuilt from the job's events when read
     * ({@link QuotaRepository#load}). A row once stored is written on every change, so that it never goes stale.
     */
    boolean onlyFirsts() {
        return !stored && latestUid == null && omittedEvents == 0 && omittedOccurrences == 0 && recent.isEmpty();
    }

    static QuotaRow empty(String jobId, String objectKey, String reason) {
        return new QuotaRow(jobId, objectKey, reason, List.of(), null, null, null, 0, 0, 0, Map.of());
    }

    static String key(String jobId, String objectKey, String reason) {
        return jobId + "\u0000" + objectKey + "\u0000" + reason;
    }

    String key() {
        return key(jobId, objectKey, reason);
    }

    public int omittedEvents() {
        return omittedEvents;
    }

    public long omittedOccurrences() {
        return omittedOccurrences;
    }

    public List<String> firstUids() {
        return firstUids;
    }

    public Map<String, Integer> recent() {
        return recent;
    }

    public int latestCount() {
        return latestCount;
    }

    public Instant latestCreated() {
        return latestCreated;
    }

    public Instant latestTime() {
        return latestTime;
    }

    public String latestUid() {
        return latestUid;
    }
}
