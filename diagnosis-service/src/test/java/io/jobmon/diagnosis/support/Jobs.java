package io.jobmon.diagnosis.support;

import static io.restassured.RestAssured.given;

import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.events.Topics;
import io.jobmon.testsupport.KafkaTestClient;
import io.jobmon.testsupport.Tokens;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;

/** Jobs as job-service announces them on {@code jobmon.job.changes}, for the service's read model. */
public final class Jobs {

    private static final AtomicLong VERSION = new AtomicLong(System.currentTimeMillis());

    private Jobs() {
    }

    public static String newId(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** A job builder with the defaults of a private, running job of alice in t1, project-nlp. */
    public static Builder job(String id) {
        return new Builder(id);
    }

    /** Publishes a snapshot of the job. */
    public static final class Builder {
        private final String id;
        private String owner = "alice";
        private String tenant = "t1";
        private String project = "project-nlp";
        private String visibility = "PRIVATE";
        private List<String> shares = List.of();
        private JobStatus status = JobStatus.RUNNING;
        private boolean autoFault;
        private boolean supportsRestart = true;
        private int retryCount;
        private int maxRetries = 3;
        private Instant startedAt;
        private Instant finishedAt;

        Builder(String id) {
            this.id = id;
        }

        public Builder owner(String owner, String tenant) {
            this.owner = owner;
            this.tenant = tenant;
            return this;
        }

        public Builder project(String project, String visibility) {
            this.project = project;
            this.visibility = visibility;
            return this;
        }

        public Builder shares(String... users) {
            this.shares = List.of(users);
            return this;
        }

        public Builder status(JobStatus status) {
            this.status = status;
            return this;
        }

        /** When the job started and (null: still running) ended. */
        public Builder ran(Instant startedAt, Instant finishedAt) {
            this.startedAt = startedAt;
            this.finishedAt = finishedAt;
            return this;
        }

        public Builder autoFault(boolean supportsRestart, int retryCount, int maxRetries) {
            this.autoFault = true;
            this.supportsRestart = supportsRestart;
            this.retryCount = retryCount;
            this.maxRetries = maxRetries;
            return this;
        }

        /** Publishes the snapshot and waits until the read model lets the owner see the job. */
        public String publish() {
            Instant now = Instant.now();
            Instant started = startedAt != null ? startedAt : now.minusSeconds(3000);
            JobSnapshot s = new JobSnapshot(id, tenant, owner, project, visibility, shares, "job " + id, "c1", "r1",
                    "gpu-prod", status, null, "A800", 8, List.of(id + "-worker-0"), List.of("gpu-node-01"),
                    supportsRestart, autoFault, retryCount, maxRetries, started.minusSeconds(600), started, finishedAt,
                    VERSION.incrementAndGet(), false);
            KafkaTestClient.send(Topics.JOB_CHANGES, id, CloudEvents.encode("/test", JobSnapshot.TYPE, id, s));
            String token = Tokens.user(owner).tenant(tenant).get();
            Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300)).until(() ->
                    given().auth().oauth2(token).get("/api/v1/jobs/" + id + "/diagnoses").statusCode() == 200);
            return id;
        }
    }
}
