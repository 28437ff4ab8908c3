package io.jobmon.jobs.alerts;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import io.jobmon.jobs.TestJobs;
import io.jobmon.testsupport.Alertmanager;
import io.jobmon.testsupport.AlertmanagerTestResource;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** A job's detail counts the alerts firing on it, from a real Alertmanager 0.25; silenced ones do not count. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithTestResource(AlertmanagerTestResource.class)
@WithKubernetesTestServer
class AlertsFiringTest {

    static String alert(String name, String job) {
        return "{\"labels\":{\"alertname\":\"" + name + "\",\"job_id\":\"" + job + "\",\"tenant\":\"t1\"},"
                + "\"endsAt\":\"" + Instant.now().plusSeconds(3600) + "\"}";
    }

    static Integer firing(String job) {
        return given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + job).then().statusCode(200).extract()
                .path("alertsFiring");
    }

    @Test
    void theDetailCountsTheJobsFiringAlertsButNotSilencedOnes() {
        String job = TestJobs.submit(Tokens.alice());
        String other = TestJobs.submit(Tokens.alice());
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + job).then().statusCode(200)
                .body("alertsFiring", equalTo(0));
        Alertmanager am = Alertmanager.shared();
        am.post("[" + alert("JobGpusIdle", job) + "," + alert("GpuXidError", job) + "," + alert("JobGpusIdle", other) + "]");
        await().atMost(Duration.ofSeconds(30)).until(() -> Integer.valueOf(2).equals(firing(job)));
        am.postJson("/api/v2/silences", "{\"matchers\":[{\"name\":\"job_id\",\"value\":\"" + job + "\",\"isRegex\":false},"
                + "{\"name\":\"alertname\",\"value\":\"GpuXidError\",\"isRegex\":false}],\"startsAt\":\"" + Instant.now()
                + "\",\"endsAt\":\"" + Instant.now().plusSeconds(3600) + "\",\"createdBy\":\"test\",\"comment\":\"known\"}");
        await().atMost(Duration.ofSeconds(30)).until(() -> Integer.valueOf(1).equals(firing(job)));
        await().atMost(Duration.ofSeconds(30)).until(() -> Integer.valueOf(1).equals(firing(other)));
    }
}
