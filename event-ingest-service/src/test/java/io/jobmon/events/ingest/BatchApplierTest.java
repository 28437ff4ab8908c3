package io.jobmon.events.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.events.JobStatusChanged;
import io.jobmon.events.k8s.Fixtures;
import io.jobmon.events.k8s.PodView;
import io.jobmon.events.status.JobModel;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Duplicate and out-of-order records within and across batches, without a database. */
class BatchApplierTest {

    static final Instant T = Instant.parse("2025-03-04T12:00:00Z");
    static final Instant OLD = Instant.parse("2024-01-01T00:00:00Z");

    static RawRecord pod(String fixture, long offset) {
        return new RawRecord(0, offset, T, "c1", "r1", "j-7f3a9c", Fixtures.pod(fixture), null);
    }

    static RawRecord event(String fixture, long offset) {
        return new RawRecord(0, offset, T, "c1", "r1", "j-7f3a9c", null, Fixtures.event(fixture));
    }

    @Test
    void eachChangeOfStatusOrReasonIsOneTransitionWithTheNextSequence() {
        BatchWrites w = new BatchApplier(new HashMap<>(), new EventQuota(1, new HashMap<>()), OLD).apply(List.of(
                pod("pod-created", 0), event("event-failedscheduling-gpu", 1), pod("pod-container-creating", 2),
                pod("pod-running", 3), pod("pod-succeeded", 4)));
        assertEquals(List.of(JobStatus.PENDING, JobStatus.QUEUED, JobStatus.PENDING, JobStatus.RUNNING,
                JobStatus.SUCCEEDED), w.transitions().stream().map(JobStatusChanged::status).toList());
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L), w.transitions().stream().map(JobStatusChanged::sequence).toList());
    }

    @Test
    void anOlderPodVersionAndARepeatedRecordChangeNothing() {
        Map<String, JobModel> jobs = new HashMap<>();
        BatchWrites w = new BatchApplier(jobs, new EventQuota(1, new HashMap<>()), OLD).apply(List.of(
                pod("pod-running", 0), pod("pod-succeeded", 1), pod("pod-running", 2), pod("pod-succeeded", 3)));
        assertEquals(2, w.stored());
        assertEquals(2, w.unchanged());
        assertEquals(1030, w.pods().values().iterator().next().pod().resourceVersion());
        assertEquals(JobStatus.SUCCEEDED, jobs.get("j-7f3a9c").status());
        assertEquals(2, jobs.get("j-7f3a9c").sequence());
    }

    @Test
    void aRepeatedEventUpdateKeepsTheHighestCount() {
        BatchWrites w = new BatchApplier(new HashMap<>(), new EventQuota(1, new HashMap<>()), OLD).apply(List.of(
                event("event-backoff-1", 0), event("event-backoff-5", 1), event("event-backoff-1", 2)));
        assertEquals(1, w.events().size());
        assertEquals(5, w.events().values().iterator().next().event().count());
    }

    @Test
    void eventsBeforeTheRetentionWindowMoveStatusButAreNotStored() {
        BatchWrites w = new BatchApplier(new HashMap<>(), new EventQuota(1, new HashMap<>()), T).apply(List.of(
                pod("pod-created", 0), event("event-failedscheduling-gpu", 1)));
        assertEquals(0, w.events().size());
        assertEquals(1, w.expired());
        assertEquals(JobStatus.QUEUED, w.transitions().get(1).status());
    }

    @Test
    void recordsOfNoKnownJobAreCountedAsUnattributed() {
        RawRecord orphan = new RawRecord(0, 0, T, "c1", "r1", null, null, Fixtures.event("event-scheduled"));
        BatchWrites w = new BatchApplier(new HashMap<>(), new EventQuota(1, new HashMap<>()), OLD).apply(List.of(orphan));
        assertEquals(1, w.unattributed());
    }

    /** A deletion the watcher found on a relist: the pod's identity, a newer resourceVersion, no status. */
    static RawRecord goneUnseen(String fixture, long resourceVersion, long offset) {
        var running = Fixtures.pod(fixture);
        var bare = new PodView(running.namespace(), running.name(), running.uid(), running.jobId(),
                null, resourceVersion, true, null, null, null, null, null, null, null, List.of(), List.of());
        return new RawRecord(0, offset, T, "c1", "r1", "j-7f3a9c", bare, null);
    }

    @Test
    void aDeletionWhoseFinalStateNobodySawKeepsTheLastStateKnown() {
        Map<String, JobModel> jobs = new HashMap<>();
        BatchWrites w = new BatchApplier(jobs, new EventQuota(1, new HashMap<>()), OLD).apply(List.of(
                pod("pod-running", 0), goneUnseen("pod-running", 5000, 1), goneUnseen("pod-running", 5001, 2)));
        var stored = w.pods().values().iterator().next().pod();
        assertEquals(true, stored.deleted());
        assertEquals("Running", stored.phase(), "the last state known, not an empty one");
        assertEquals(5000, stored.resourceVersion());
        assertEquals(1, w.unchanged(), "a second such deletion changes nothing");
        assertEquals(List.of(JobStatus.RUNNING, JobStatus.ABNORMAL),
                w.transitions().stream().map(JobStatusChanged::status).toList());
        assertEquals("PodDeleted", w.transitions().get(1).reason());
    }

    @Test
    void aSucceededPodFoundGoneStaysSucceeded() {
        BatchWrites w = new BatchApplier(new HashMap<>(), new EventQuota(1, new HashMap<>()), OLD).apply(List.of(
                pod("pod-succeeded", 0), goneUnseen("pod-succeeded", 5000, 1)));
        assertEquals(List.of(JobStatus.SUCCEEDED), w.transitions().stream().filter(t -> !t.podsOnly())
                .map(JobStatusChanged::status).toList());
        // the pod's going shows on the job's pods, the status stays
        JobStatusChanged update = w.transitions().get(1);
        assertEquals(true, update.podsOnly());
        assertEquals(JobStatus.SUCCEEDED, update.status());
        assertEquals("Deleted", update.pods().get(0).phase());
    }
    @Test
    void anEventAboutANodeIsKeptForTheNodeAndMovesNoJob() {
        Map<String, JobModel> jobs = new HashMap<>();
        RawRecord oom = new RawRecord(0, 0, T, "c1", "r1", null, null, Fixtures.event("event-node-systemoom"));
        RawRecord oops = new RawRecord(0, 1, T, "c1", "r1", null, null, Fixtures.event("event-node-kerneloops"));
        BatchWrites w = new BatchApplier(jobs, new EventQuota(1, new HashMap<>()), OLD).apply(List.of(oom, oops, oom));
        assertEquals(2, w.nodeEvents().size());
        assertEquals("gpu-node-03", w.nodeEvents().values().iterator().next().event().objectName());
        assertEquals(0, w.unattributed(), "a node's event is not an event of an unknown job");
        assertEquals(0, w.events().size());
        assertEquals(List.of(), w.transitions());
        assertEquals(Map.of(), jobs);
        BatchWrites expired = new BatchApplier(new HashMap<>(), new EventQuota(1, new HashMap<>()), T).apply(List.of(oom));
        assertEquals(0, expired.nodeEvents().size());
        assertEquals(1, expired.expired());
    }
}
