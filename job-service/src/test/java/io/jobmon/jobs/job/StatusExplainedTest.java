package io.jobmon.jobs.job;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;

import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.DiagnosisFinished;
import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.events.JobStatusChanged;
import io.jobmon.contracts.events.PodSummary;
import io.jobmon.contracts.events.Topics;
import io.jobmon.jobs.TestJobs;
import io.jobmon.testsupport.KafkaTestClient;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What a job's status, sub-state, failure reason and pod conditions mean, through the API in both languages: a job
 * stuck on its image or a volume says so, a failure reason comes with its text (a diagnosis category too, in the
 * stats as well), every status has a meaning and a next step.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithKubernetesTestServer
class StatusExplainedTest {

    /** Chinese characters and no English phrase (names such as Pod, GPU or jobmon may stay). */
    static final String CHINESE = "(?s)(?=.*\\p{IsHan})(?!.*[A-Za-z]+ [a-z]+).*";

    static void send(JobStatusChanged e) {
        KafkaTestClient.send(Topics.JOB_STATUS, e.jobId(),
                CloudEvents.encode("/test/event-ingest", JobStatusChanged.TYPE, e.jobId(), e));
    }

    static void awaitReason(String id, String reason) {
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().auth().oauth2(Tokens.alice())
                .get("/api/v1/jobs/" + id).then().body("reason", equalTo(reason)));
    }

    @ParameterizedTest
    @CsvSource({
        "PENDING, ImagePullBackOff, IMAGE_PULL_FAILED, image cannot be pulled, 镜像无法拉取",
        "PENDING, InvalidImageName, IMAGE_PULL_FAILED, image cannot be pulled, 镜像无法拉取",
        "PENDING, FailedMount, VOLUME_MOUNT_FAILED, volume cannot be mounted, 存储卷无法挂载",
        "PENDING, FailedAttachVolume, VOLUME_MOUNT_FAILED, volume cannot be mounted, 存储卷无法挂载",
        "QUEUED, FailedScheduling, UNSCHEDULABLE, No node can take, 没有节点"})
    void aJobThatCannotStartSaysWhyInItsSubState(JobStatus status, String reason, String subState, String en,
            String zh) {
        String id = TestJobs.submit(Tokens.alice());
        send(TestJobs.status(id, status, 1, reason));
        awaitReason(id, reason);
        given().auth().oauth2(Tokens.alice()).header("Accept-Language", "en").get("/api/v1/jobs/" + id).then()
                .body("status", equalTo(status.name())).body("subState", equalTo(subState))
                .body("subStateText", containsString(en)).body("reasonExplanation", not(nullValue()));
        given().auth().oauth2(Tokens.alice()).header("Accept-Language", "zh-CN").get("/api/v1/jobs?name=" + id)
                .then().body("items[0].subState", equalTo(subState))
                .body("items[0].subStateText", containsString(zh))
                .body("items[0].subStateText", matchesPattern(CHINESE));
        // once it runs, the sub-state is gone
        send(TestJobs.status(id, JobStatus.RUNNING, 2, "Started"));
        awaitReason(id, "Started");
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + id).then().body("subState", nullValue())
                .body("subStateText", nullValue());
    }

    @Test
    void aFailureReasonComesWithItsCodeAndTextAndADiagnosisCategoryToo() {
        String oom = TestJobs.submit(Tokens.alice());
        send(new JobStatusChanged(oom, "ext-b", JobStatus.FAILED, "OOMKilled", "exit 137", 137, Instant.now(), 1,
                List.of()));
        awaitReason(oom, "OOMKilled");
        given().auth().oauth2(Tokens.alice()).header("Accept-Language", "en").get("/api/v1/jobs/" + oom).then()
                .body("failureReason", equalTo("OOMKilled")).body("failureReasonCode", equalTo("out-of-memory"))
                .body("failureReasonText", containsString("more memory than its limit"));

        String started = TestJobs.submit(Tokens.alice());
        send(new JobStatusChanged(started, "ext-b", JobStatus.FAILED, "Error", "exit 127", 127, Instant.now(), 1,
                List.of()));
        awaitReason(started, "Error");
        String diagnosis = "d-" + UUID.randomUUID();
        KafkaTestClient.send(Topics.DIAGNOSES, started, CloudEvents.encode("/test", DiagnosisFinished.TYPE, started,
                new DiagnosisFinished(diagnosis, started, "JOB_FAILED", "START_COMMAND_ERROR", "NONE",
                        "python: can't open file", 0.9, Instant.now())));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().auth().oauth2(Tokens.alice())
                .get("/api/v1/jobs/" + started).then().body("failureReason", equalTo("START_COMMAND_ERROR")));
        given().auth().oauth2(Tokens.alice()).header("Accept-Language", "zh-CN").get("/api/v1/jobs/" + started)
                .then().body("failureReasonCode", equalTo("START_COMMAND_ERROR"))
                .body("failureReasonText", equalTo("启动命令错误")).body("failureDiagnosisId", equalTo(diagnosis));
        given().auth().oauth2(Tokens.alice()).header("Accept-Language", "en").get("/api/v1/jobs?name=" + started)
                .then().body("items[0].failureReasonText", equalTo("start command error"));
        given().auth().oauth2(Tokens.alice()).header("Accept-Language", "zh-CN").get("/api/v1/jobs/stats").then()
                .statusCode(200)
                .body("topFailureReasons.find { it.reason == 'START_COMMAND_ERROR' }.text", equalTo("启动命令错误"))
                .body("topFailureReasons.find { it.reason == 'OOMKilled' }.code", equalTo("out-of-memory"))
                .body("topFailureReasons.find { it.reason == 'OOMKilled' }.text", matchesPattern(CHINESE));
    }

    @Test
    void everyStatusHasAMeaningAndANextStepInBothLanguages() {
        String id = TestJobs.submit(Tokens.alice());
        given().auth().oauth2(Tokens.alice()).header("Accept-Language", "en").get("/api/v1/jobs/" + id).then()
                .body("status", equalTo("PENDING")).body("statusMeaning", containsString("waits for its cluster"))
                .body("statusNextStep", not(nullValue()));
        given().auth().oauth2(Tokens.alice()).header("Accept-Language", "zh-CN").get("/api/v1/jobs/statuses").then()
                .statusCode(200).body("items", hasSize(JobStatus.values().length))
                .body("items.status", contains(java.util.Arrays.stream(JobStatus.values()).map(Enum::name)
                        .toArray()))
                .body("items.find { it.status == 'QUEUED' }.statusText", equalTo("排队中"))
                .body("items.find { it.status == 'FAILED' }.terminal", equalTo(true))
                .body("items.find { it.status == 'QUEUED' }.waiting", equalTo(true))
                .body("items.meaning", not(hasItem(not(matchesPattern(CHINESE)))))
                .body("items.nextStep", not(hasItem(not(matchesPattern(CHINESE)))));
        given().auth().oauth2(Tokens.alice()).header("Accept-Language", "en").get("/api/v1/jobs/statuses").then()
                .body("items.find { it.status == 'ABNORMAL' }.nextStep", containsString("resubmit"));
        given().get("/api/v1/jobs/statuses").then().statusCode(401);
    }

    @Test
    void podConditionTypesHaveNamesInTheReadersLanguage() {
        String id = TestJobs.submit(Tokens.alice());
        Instant t = Instant.parse("2026-07-13T09:30:00Z");
        PodSummary pod = new PodSummary(id + "-0", "train", "gpu-node-1", "Running", null, List.of(), List.of(
                new PodSummary.Condition("PodReadyToStartContainers", "True", null, null, t),
                new PodSummary.Condition("Initialized", "True", null, null, t),
                new PodSummary.Condition("ContainersReady", "True", null, null, t),
                new PodSummary.Condition("Ready", "True", null, null, t),
                new PodSummary.Condition("PodScheduled", "True", null, null, t),
                new PodSummary.Condition("DisruptionTarget", "True", "PreemptionByScheduler", null, t),
                new PodSummary.Condition("example.com/Custom", "True", null, null, t)));
        send(TestJobs.status(id, JobStatus.RUNNING, 1, "Started", List.of(pod)));
        awaitReason(id, "Started");
        given().auth().oauth2(Tokens.alice()).header("Accept-Language", "zh-CN").get("/api/v1/jobs/" + id + "/pods")
                .then().body("items[0].conditions.typeText", contains("可以启动容器", "已初始化", "容器就绪", "就绪",
                        "已调度", "即将被中断", null));
        given().auth().oauth2(Tokens.alice()).header("Accept-Language", "en").get("/api/v1/jobs/" + id + "/pods")
                .then().body("items[0].conditions.find { it.type == 'PodScheduled' }.typeText", equalTo("Scheduled"));
        // derived conditions (a pod reported without any) are named too
        String bare = TestJobs.submit(Tokens.alice());
        send(TestJobs.status(bare, JobStatus.PENDING, 1, "Scheduled", List.of(new PodSummary(bare + "-0", "train",
                null, "Pending", null, List.of()))));
        awaitReason(bare, "Scheduled");
        given().auth().oauth2(Tokens.alice()).header("Accept-Language", "zh-CN").get("/api/v1/jobs/" + bare + "/pods")
                .then().body("items[0].conditions.typeText", contains("已调度", "就绪"));
    }
}
