package io.jobmon.diagnosis.support;

import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.events.JobStatusChanged;
import io.jobmon.contracts.events.PodSummary;
import io.jobmon.contracts.events.Topics;
import io.jobmon.testsupport.KafkaTestClient;
import java.time.Instant;
import java.util.List;

/** Records other services put on the topics this service consumes. */
public final class Records {

    private Records() {
    }

    /** A status transition of event-ingest, with one pod whose container ended as given. */
    public static String status(String jobId, JobStatus status, long sequence, String reason, String message,
            String containerReason, Integer exitCode) {
        PodSummary pod = new PodSummary(jobId + "-worker-0", "train", "gpu-node-01",
                status == JobStatus.RUNNING ? "Running" : "Failed", reason,
                List.of(new PodSummary.ContainerSummary("trainer", "terminated", containerReason, exitCode, 0)));
        JobStatusChanged c = new JobStatusChanged(jobId, "c1", status, reason, message, exitCode, Instant.now(),
                sequence, List.of(pod));
        return CloudEvents.encode("/jobmon/event-ingest-service", JobStatusChanged.TYPE, jobId, c);
    }

    public static void sendStatus(String jobId, String value) {
        KafkaTestClient.send(Topics.JOB_STATUS, jobId, value);
    }
}
