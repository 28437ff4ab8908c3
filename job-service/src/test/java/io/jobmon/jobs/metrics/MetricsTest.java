package io.jobmon.jobs.metrics;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;

import io.jobmon.contracts.events.JobStatus;
import io.jobmon.jobs.TestJobs;
import io.jobmon.jobs.messaging.StatusHandler;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Prometheus series the platform's alert rules use. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithKubernetesTestServer
class MetricsTest {

    @Inject
    StatusHandler statuses;

    @Inject
    JobGauges gauges;

    @Inject
    io.jobmon.contracts.outbox.Outbox outbox;

    @Test
    void jobsByStatusPendingTimeSchedulingLatencyAndFailuresByReasonAreExported() {
        String queued = TestJobs.submit(Tokens.alice(), TestJobs.spec(Map.of("queue", "metrics-q")));
        String failing = TestJobs.submit(Tokens.alice(), TestJobs.spec(Map.of("queue", "metrics-q")));
        statuses.apply(TestJobs.status(queued, JobStatus.QUEUED, 1, "QuotaExceeded")).await().indefinitely();
        statuses.apply(TestJobs.status(failing, JobStatus.RUNNING, 1, "Started")).await().indefinitely();
        statuses.apply(TestJobs.status(failing, JobStatus.FAILED, 2, "OOMKilled")).await().indefinitely();
        // the scheduled refreshes run too: one that read the tables before these jobs may land after this one, so
        // refresh until the series are there (a Uni: nothing happens until it is subscribed)
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            gauges.refresh().await().indefinitely();
            outbox.measure().await().indefinitely();
            given().get(io.jobmon.testsupport.Management.url("/q/metrics")).then().statusCode(200)
                    .body(containsString("jobmon_jobs{cluster=\"ext-b\",queue=\"metrics-q\",status=\"QUEUED\"}"))
                    .body(containsString("jobmon_job_pending_seconds_bucket{cluster=\"ext-b\""))
                    .body(containsString("jobmon_job_scheduling_latency_seconds_count{cluster=\"ext-b\""))
                    .body(containsString("jobmon_job_failures_total{cluster=\"ext-b\",queue=\"metrics-q\",reason=\"OOMKilled\"}"))
                    .body(containsString("jobmon_outbox_pending{topic=\"jobmon.job.changes\"}"));
        });
    }
}
