package io.jobmon.events.ingest;

import static io.jobmon.events.ingest.Store.count;
import static io.jobmon.events.ingest.Store.rows;
import static io.jobmon.events.ingest.Store.send;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.events.JobStatusChanged;
import io.jobmon.contracts.events.Topics;
import io.jobmon.events.k8s.EventView;
import io.jobmon.events.k8s.Fixtures;
import io.jobmon.events.k8s.PodParser;
import io.jobmon.testsupport.KafkaTestClient;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** The consumer of jobmon.k8s.raw on a real broker and a real PostgreSQL. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
class RawIngestTest {

    @Inject
    Pool pool;
    @Inject
    IngestService ingest;
    @Inject
    io.jobmon.contracts.outbox.Outbox outbox;
    @Inject
    StopService stops;
    @Inject
    JobStateCache cache;

    static String newJob() {
        return "j-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** Pod names are unique per job: a pod is identified by cluster, namespace and name. */
    static void sendPod(String job, String fixture, String shortName) {
        String pod = job + "-" + shortName;
        send("c1/team-nlp/" + pod, Fixtures.record("c1", "MODIFIED",
                Fixtures.retarget(fixture, job, pod, job + "-" + pod, Fixtures.json(fixture).path("metadata")
                        .path("resourceVersion").asLong()), null));
    }

    static void sendEvent(String job, String fixture, String shortName, String uid) {
        String pod = job + "-" + shortName;
        send("c1/team-nlp/" + pod, Fixtures.record("c1", "ADDED", Fixtures.retarget(fixture, job, pod, uid,
                Fixtures.json(fixture).path("metadata").path("resourceVersion").asLong()), job));
    }

    @Test
    void podsAndEventsAreStoredAndEachTransitionPublishedWithAnIncreasingSequence() {
        String job = newJob();
        sendPod(job, "pod-created", "p0");
        sendEvent(job, "event-failedscheduling-gpu", "p0", job + "-fs");
        sendPod(job, "pod-running", "p0");
        sendPod(job, "pod-failed-oomkilled", "p0");
        List<JobStatusChanged> s = Store.statuses(job, 4);
        assertEquals(List.of(JobStatus.PENDING, JobStatus.QUEUED, JobStatus.RUNNING, JobStatus.FAILED),
                s.stream().map(JobStatusChanged::status).toList());
        assertEquals(List.of(1L, 2L, 3L, 4L), s.stream().map(JobStatusChanged::sequence).toList());
        JobStatusChanged failed = s.get(3);
        assertEquals("OOMKilled", failed.reason());
        assertEquals(137, failed.exitCode());
        assertEquals("c1", failed.cluster());
        assertEquals(job + "-p0", failed.pods().get(0).name());
        // the pod's conditions travel as the kubelet wrote them, for the job's pod list
        var ready = failed.pods().get(0).conditions().stream().filter(c -> "Ready".equals(c.type())).findFirst()
                .orElseThrow();
        assertEquals("False", ready.status());
        assertEquals("PodFailed", ready.reason());
        assertEquals(java.time.Instant.parse("2025-03-04T10:42:18Z"), ready.lastTransitionTime());
        assertEquals(1, count(pool, "SELECT count(*) FROM event WHERE job_id = $1", job));
        assertEquals(4, count(pool, "SELECT sequence FROM job_state WHERE job_id = $1", job));
    }

    @Test
    void duplicateAndOutOfOrderRecordsChangeNothing() {
        String job = newJob();
        sendPod(job, "pod-succeeded", "p0");
        sendPod(job, "pod-running", "p0");
        sendPod(job, "pod-succeeded", "p0");
        sendEvent(job, "event-backoff-5", "p0", job + "-bo");
        sendEvent(job, "event-backoff-1", "p0", job + "-bo");
        sendEvent(job, "event-backoff-5", "p0", job + "-bo");
        sendPod(job, "pod-created", "p1");
        Store.statuses(job, 2);
        await().atMost(Duration.ofSeconds(20)).until(() -> count(pool,
                "SELECT count(*) FROM pod_state WHERE job_id = $1", job) == 2);
        var pod = rows(pool, "SELECT resource_version, view->>'phase' AS phase FROM pod_state WHERE job_id = $1"
                + " AND name = $2", job, job + "-p0").get(0);
        assertEquals(1030, pod.getLong("resource_version"));
        assertEquals("Succeeded", pod.getString("phase"));
        var event = rows(pool, "SELECT count, resource_version FROM event WHERE job_id = $1", job);
        assertEquals(1, event.size());
        assertEquals(5, event.get(0).getInteger("count"));
        List<JobStatusChanged> s = Store.statuses(job, 2);
        assertEquals(List.of(JobStatus.SUCCEEDED, JobStatus.PARTIALLY_PENDING),
                s.stream().map(JobStatusChanged::status).toList(), "the stale and repeated records published nothing");
        assertEquals(2, count(pool, "SELECT sequence FROM job_state WHERE job_id = $1", job));
    }

    @Test
    void invalidRecordsGoToTheDeadLetterQueueWithTheReasonAndThePartitionMovesOn() {
        String job = newJob();
        send("c1/team-nlp/x", "this is not JSON " + job);
        var noUid = (com.fasterxml.jackson.databind.node.ObjectNode) Fixtures.retarget("pod-running", job, "p0", "u", 5);
        ((com.fasterxml.jackson.databind.node.ObjectNode) noUid.get("metadata")).remove("uid");
        send("c1/team-nlp/p0", Fixtures.record("c1", "ADDED", noUid, job));
        sendPod(job, "pod-running", "p0");
        List<ConsumerRecord<String, String>> dead = KafkaTestClient.await(Topics.dlq(Topics.K8S_RAW),
                r -> r.value() != null && r.value().contains(job), 2, Duration.ofSeconds(30));
        assertEquals(2, dead.size());
        String reason = new String(dead.get(1).headers().lastHeader("dead-letter-reason").value(), StandardCharsets.UTF_8);
        assertTrue(reason.contains("without metadata.uid"), reason);
        assertTrue(new String(dead.get(0).headers().lastHeader("dead-letter-reason").value(), StandardCharsets.UTF_8)
                .startsWith("not JSON"));
        assertEquals(JobStatus.RUNNING, Store.statuses(job, 1).get(0).status());
    }

    @Test
    void aBatchReadAgainAfterACrashChangesNothingTheSecondTime() {
        String job = newJob();
        String topic = "test.replay." + job;
        List<RawRecord> batch = List.of(
                new RawRecord(0, 0, Instant.now(), "c-" + job, "r", job, Fixtures.pod("pod-created"), null),
                new RawRecord(0, 1, Instant.now(), "c-" + job, "r", job, null, Fixtures.event("event-failedscheduling-gpu")),
                new RawRecord(0, 2, Instant.now(), "c-" + job, "r", job, null, Fixtures.event("event-backoff-1")),
                new RawRecord(0, 3, Instant.now(), "c-" + job, "r", job, Fixtures.pod("pod-running"), null));
        IngestService.Result first = ingest.apply(topic, batch, Map.of(0, 3L)).await().atMost(Duration.ofSeconds(20));
        assertEquals(3, first.writes().transitions().size());
        assertEquals(1, first.transitions().size(), "committed to the outbox in one row, claimed for this instance to publish");
        assertEquals(1, outbox.publish(first.transitions()).await().atMost(Duration.ofSeconds(20)));
        IngestService.Result again = ingest.apply(topic, batch, Map.of(0, 3L)).await().atMost(Duration.ofSeconds(20));
        assertEquals(4, again.replayed());
        assertEquals(0, again.writes().transitions().size());
        assertEquals(0, again.transitions().size());
        assertEquals(3, count(pool, "SELECT sequence FROM job_state WHERE job_id = $1", job));
        assertEquals(2, count(pool, "SELECT count(*) FROM event WHERE job_id = $1", job));
        var published = KafkaTestClient.await(Topics.JOB_STATUS, r -> job.equals(r.key()), 4, Duration.ofSeconds(10));
        assertEquals(3, published.size(), "each transition published once, through the outbox");
    }

    @Test
    void aJobWrittenElsewhereSinceItsLastBatchIsReadAgainNotTakenFromMemory() {
        String job = newJob();
        String topic = "test.cache." + job;
        String cluster = "c-" + job;
        var running = Fixtures.retarget("pod-running", job, job + "-p0", "u-" + job, 100);
        IngestService.Result first = ingest.apply(topic, List.of(new RawRecord(0, 0, Instant.now(), cluster, "r", job,
                PodParser.parse(running, false), null)), Map.of(0, 0L)).await().atMost(Duration.ofSeconds(20));
        assertEquals(JobStatus.RUNNING, first.writes().transitions().get(0).status());
        // another writer (here a stop request; as well another consumer after a rebalance) changes the stored job
        pool.withTransaction(tx -> stops.stopRequested(tx, job)).await().atMost(Duration.ofSeconds(20));
        ((com.fasterxml.jackson.databind.node.ObjectNode) running.get("metadata")).put("resourceVersion", "101");
        IngestService.Result deleted = ingest.apply(topic, List.of(new RawRecord(0, 1, Instant.now(), cluster, "r", job,
                PodParser.parse(running, true), null)), Map.of(0, 1L)).await().atMost(Duration.ofSeconds(20));
        JobStatusChanged stopped = deleted.writes().transitions().get(0);
        assertEquals(JobStatus.STOPPED, stopped.status(), "the stop request stored since was read, not the job kept in memory");
        assertEquals(2, stopped.sequence());
        assertEquals(2, count(pool, "SELECT sequence FROM job_state WHERE job_id = $1", job));
    }

    @Test
    void aBatchOfManyJobsPublishesEveryTransition() {
        String prefix = newJob() + "-";
        List<Map.Entry<String, String>> records = new ArrayList<>();
        for (int i = 0; i < 1500; i++) {
            String job = prefix + i;
            records.add(Map.entry("c1/team-nlp/" + job + "-p0", Fixtures.record("c1", "MODIFIED",
                    Fixtures.retarget("pod-running", job, job + "-p0", "u-" + job, 100), null)));
        }
        KafkaTestClient.sendAll(Topics.K8S_RAW, records);
        // more transitions than the Kafka sink requests at once: all are published, the consumer goes on
        var published = KafkaTestClient.await(Topics.JOB_STATUS, r -> r.key() != null && r.key().startsWith(prefix),
                1500, Duration.ofSeconds(60));
        assertEquals(1500, published.size());
        String after = newJob();
        sendPod(after, "pod-running", "p0");
        assertEquals(JobStatus.RUNNING, Store.statuses(after, 1).get(0).status());
    }

    /** A back-off event of pod p of the job, {@code minute} minutes ago. */
    static EventView backOff(String job, String uid, int minutesAgo) {
        Instant t = Instant.now().minusSeconds(60L * minutesAgo).truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        return new EventView("ns", uid, uid, 1000 - minutesAgo, "Warning", "BackOff", "Back-off restarting", 1, t, t, t,
                "Pod", job + "-p", "ns", "spec.containers{trainer}", "kubelet");
    }

    @Test
    void aQuotaOfOnlyFirstEventsIsNotWrittenAndIsRebuiltFromTheEventsWhenTheJobIsReadAgain() {
        String job = newJob();
        String topic = "test.quota." + job;
        java.util.function.BiConsumer<Long, EventView> apply = (offset, e) -> {
            cache.take(List.of(job)); // as after a restart or a rebalance: the job is read from the store
            ingest.apply(topic, List.of(new RawRecord(0, offset, Instant.now(), "c1", "r", job, null, e)),
                    Map.of(0, offset)).await().atMost(Duration.ofSeconds(20));
        };
        apply.accept(0L, backOff(job, job + "-a", 30));
        assertEquals(0, count(pool, "SELECT count(*) FROM event_quota WHERE job_id = $1", job), "only a first: not written");
        apply.accept(1L, backOff(job, job + "-b", 20));
        var row = rows(pool, "SELECT first_uids, latest_uid FROM event_quota WHERE job_id = $1", job);
        assertEquals(List.of(job + "-a"), List.of(row.get(0).getArrayOfStrings("first_uids")), "a rebuilt as the first");
        assertEquals(job + "-b", row.get(0).getString("latest_uid"));
        apply.accept(2L, backOff(job, job + "-c", 10));
        assertEquals(List.of(job + "-a", job + "-c"), rows(pool, "SELECT uid FROM event WHERE job_id = $1 ORDER BY uid", job)
                .stream().map(r -> r.getString("uid")).toList(), "b counted, c the latest");
        assertEquals(1, count(pool, "SELECT omitted_events FROM event_quota WHERE job_id = $1", job));
    }
}
