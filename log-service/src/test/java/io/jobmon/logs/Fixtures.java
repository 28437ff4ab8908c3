package io.jobmon.logs;

import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.events.Topics;
import io.jobmon.testsupport.KafkaTestClient;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Jobs and log records of the log-service tests, sent as the other services and the shippers would. */
public final class Fixtures {

    public static final String TOPIC = Topics.LOGS_LINES;

    private Fixtures() {
    }

    public static String newJob() {
        return "j-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** A job of alice (t1, project-nlp) with its pods on gpu-node-07, running since an hour before 2026-07-13T10:15Z. */
    public static JobSnapshot job(String id, String visibility, List<String> shares, List<String> pods, long version) {
        return new JobSnapshot(id, "t1", "alice", "project-nlp", visibility, shares, "llama-sft", "local", "local", "default",
                JobStatus.RUNNING, null, "A800", 8, pods, List.of("gpu-node-07"), false, false, 0, 0,
                Instant.parse("2026-07-13T09:00:00Z"), Instant.parse("2026-07-13T09:10:00Z"), null, version, false,
                "team-nlp", null, List.of());
    }

    public static JobSnapshot finished(JobSnapshot s, Instant at, long version) {
        return new JobSnapshot(s.jobId(), s.tenant(), s.owner(), s.project(), s.visibility(), s.shares(), s.name(),
                s.cluster(), s.region(), s.queue(), JobStatus.SUCCEEDED, null, s.gpuType(), s.gpuCount(), s.pods(), s.nodes(),
                false, false, 0, 0, s.submittedAt(), s.startedAt(), at, version, false, s.namespace(), null, List.of());
    }

    public static void publish(JobSnapshot s) {
        KafkaTestClient.send(Topics.JOB_CHANGES, s.jobId(), CloudEvents.encode("/test", JobSnapshot.TYPE, s.jobId(), s));
    }

    public static void send(String value) {
        KafkaTestClient.send(TOPIC, "local/team-nlp/pod", value);
    }

    public static void sendAll(List<String> values) {
        KafkaTestClient.sendAll(TOPIC, values.stream().map(v -> Map.entry("local/team-nlp/pod", v)).toList());
    }

    /** A Fluent Bit record (cri parser, kubernetes filter, kafka output) of one line of a pod of the job. */
    public static String fluentBit(String job, String pod, String container, Instant time, String line) {
        String labels = job == null ? "{\"app\":\"x\"}" : "{\"app\":\"x\",\"jobmon.io/job-id\":\"" + job + "\"}";
        return "{\"@timestamp\":" + time.getEpochSecond() + "." + String.format("%06d", time.getNano() / 1000)
                + ",\"time\":\"" + time + "\",\"stream\":\"stdout\",\"_p\":\"F\",\"log\":" + CloudEvents.toJson(line)
                + ",\"kubernetes\":{\"pod_name\":\"" + pod + "\",\"namespace_name\":\"team-nlp\",\"labels\":" + labels
                + ",\"host\":\"gpu-node-07\",\"container_name\":\"" + container + "\",\"container_image\":\"trainer:2.4\"}}";
    }

    public static long count(Pool pool, String sql, Object... args) {
        return pool.preparedQuery(sql).execute(Tuple.from(args)).await().atMost(Duration.ofSeconds(10))
                .iterator().next().getLong(0);
    }
}
