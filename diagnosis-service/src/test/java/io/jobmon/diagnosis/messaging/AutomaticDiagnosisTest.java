package io.jobmon.diagnosis.messaging;

import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.matching;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.contracts.events.CloudEvent;
import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.DiagnosisFinished;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.events.Topics;
import io.jobmon.diagnosis.support.Diagnoses;
import io.jobmon.diagnosis.support.EvidenceServer;
import io.jobmon.diagnosis.support.Jobs;
import io.jobmon.diagnosis.support.Records;
import io.jobmon.diagnosis.support.Samples;
import io.jobmon.testsupport.KafkaTestClient;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** A job that becomes FAILED or ABNORMAL on {@code jobmon.job.status} is diagnosed; the result goes to jobmon.diagnoses. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithTestResource(EvidenceServer.class)
class AutomaticDiagnosisTest {

    @Test
    void aFailedJobIsDiagnosedWithTheServiceTokenAndTheResultPublished() {
        String job = Jobs.job(Jobs.newId("failed")).publish();
        EvidenceServer.serve(job, Samples.recent("007-container_oom.json", job, Instant.now()));
        Records.sendStatus(job, Records.status(job, JobStatus.FAILED, 7, "OOMKilled", "container trainer OOMKilled",
                "OOMKilled", 137));

        List<ConsumerRecord<String, String>> found = KafkaTestClient.await(Topics.DIAGNOSES,
                r -> job.equals(r.key()), 1, Duration.ofSeconds(60));
        assertEquals(1, found.size(), "a DiagnosisFinished for " + job);
        CloudEvent<DiagnosisFinished> event = CloudEvents.decode(found.get(0).value(), DiagnosisFinished.class);
        assertEquals(DiagnosisFinished.TYPE, event.type());
        assertEquals("JOB_FAILED", event.data().trigger());
        assertEquals("CONTAINER_OOM", event.data().category());
        assertEquals("TERMINATE", event.data().action());

        JsonPath d = Diagnoses.awaitFinished(Tokens.alice(), event.data().diagnosisId());
        assertEquals(List.of(), d.getList("missingSources"));
        // stored in both languages: a zh-CN reader gets the automatic diagnosis in Chinese, others in English
        JsonPath zh = io.restassured.RestAssured.given().auth().oauth2(Tokens.alice())
                .header("Accept-Language", "zh-CN,zh;q=0.9").get("/api/v1/diagnoses/" + event.data().diagnosisId())
                .then().statusCode(200).extract().jsonPath();
        assertTrue(zh.getString("result.summary").codePoints().anyMatch(c -> Character.UnicodeScript.of(c)
                == Character.UnicodeScript.HAN), zh.getString("result.summary"));
        assertTrue(zh.getString("result.suggestion").codePoints().anyMatch(c -> Character.UnicodeScript.of(c)
                == Character.UnicodeScript.HAN), zh.getString("result.suggestion"));
        assertTrue(d.getString("result.summary").codePoints().noneMatch(c -> Character.UnicodeScript.of(c)
                == Character.UnicodeScript.HAN), d.getString("result.summary"));
        assertEquals(d.getString("result.category"), zh.getString("result.category"));
        EvidenceServer.server().verify(getRequestedFor(urlPathEqualTo("/api/v1/jobs/" + job + "/logs"))
                .withHeader("Authorization", matching("Bearer .+")));
    }

    @Test
    void withNoSourceAnsweringTheStatusRecordItselfIsTheEvidence() {
        String job = Jobs.job(Jobs.newId("nosource")).publish(); // no evidence served: every source answers 404
        Records.sendStatus(job, Records.status(job, JobStatus.ABNORMAL, 3, "OOMKilled", "OOMKilled", "OOMKilled", 137));
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> Diagnoses.history(Tokens.alice(), job)
                .getList("items.status").contains("DONE"));
        Map<String, Object> d = Diagnoses.history(Tokens.alice(), job).getMap("items[0]");
        assertEquals("JOB_FAILED", d.get("trigger"));
        assertEquals(List.of("job", "pods", "events", "logs", "metrics"), d.get("missingSources"));
        assertEquals("CONTAINER_OOM", ((Map<?, ?>) d.get("result")).get("category"));
    }

    @Test
    void aRedeliveredStatusRecordOrARefinedReasonIsDiagnosedOnce() {
        String job = Jobs.job(Jobs.newId("twice")).publish();
        String record = Records.status(job, JobStatus.FAILED, 11, "BackoffLimitExceeded",
                "Job has reached the specified backoff limit", "BackoffLimitExceeded", null);
        Records.sendStatus(job, record);
        Records.sendStatus(job, record);
        // the pod's own cause after the Job controller's verdict: the same failure, not a second one
        Records.sendStatus(job, Records.status(job, JobStatus.FAILED, 12, "OOMKilled", "OOMKilled", "OOMKilled", 137));
        Records.sendStatus(job, Records.status(job, JobStatus.RUNNING, 13, null, null, null, null));
        // a crash loop: ABNORMAL, then FAILED once the Job controller gives up — one failure, one diagnosis
        String loop = Jobs.job(Jobs.newId("loop")).publish();
        Records.sendStatus(loop, Records.status(loop, JobStatus.ABNORMAL, 4, "CrashLoopBackOff",
                "back-off 40s restarting failed container", "CrashLoopBackOff", 1));
        Records.sendStatus(loop, Records.status(loop, JobStatus.FAILED, 5, "BackoffLimitExceeded",
                "Job has reached the specified backoff limit", "BackoffLimitExceeded", null));
        // a later record of another job on the same partition proves both copies were consumed
        String barrier = Jobs.job(Jobs.newId("barrier")).publish();
        Records.sendStatus(barrier, Records.status(barrier, JobStatus.FAILED, 1, "Error", "exit 1", "Error", 1));
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> Diagnoses.history(Tokens.alice(), barrier)
                .getList("items").size() == 1);
        assertEquals(1, Diagnoses.history(Tokens.alice(), job).getList("items").size());
        assertEquals(1, Diagnoses.history(Tokens.alice(), loop).getList("items").size());
    }

    @Test
    void aRunningJobIsNotDiagnosedAutomatically() {
        String job = Jobs.job(Jobs.newId("running")).publish();
        Records.sendStatus(job, Records.status(job, JobStatus.RUNNING, 2, null, null, null, null));
        String barrier = Jobs.job(Jobs.newId("barrier")).publish();
        Records.sendStatus(barrier, Records.status(barrier, JobStatus.FAILED, 1, "Error", "exit 1", "Error", 1));
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> Diagnoses.history(Tokens.alice(), barrier)
                .getList("items").size() == 1);
        assertTrue(Diagnoses.history(Tokens.alice(), job).getList("items").isEmpty());
    }
}
