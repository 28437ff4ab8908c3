package io.jobmon.jobs.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.startsWith;

import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.events.JobStatusChanged;
import io.jobmon.jobs.TestJobs;
import io.jobmon.jobs.messaging.StatusHandler;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.jobmon.testsupport.ZhCnText;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A new user builds the job-monitor table (作业监控) from the API alone, in Chinese: status texts, jobmon's messages,
 * durations, reason explanations beside Kubernetes' own words, problems — and the same data in English; what code
 * switches on (status, reasonCode, problem type) never changes with the language.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithKubernetesTestServer
class LanguageTest {

    static final String MILLIS = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z";

    @Inject
    StatusHandler statuses;

    static String user() {
        return Tokens.user("zh-" + UUID.randomUUID().toString().substring(0, 6)).groups("project-nlp").get();
    }

    static JsonPath list(String token, String language) {
        var req = given().auth().oauth2(token);
        if (language != null) {
            req.header("Accept-Language", language);
        }
        return req.queryParam("sort", "name:asc").get("/api/v1/jobs").then().statusCode(200).extract().jsonPath();
    }

    @Test
    void theJobMonitorTableReadsInChineseAndTheSameDataInEnglish() {
        String token = user();
        String waiting = TestJobs.submit(token, TestJobs.spec(Map.of("name", "a-waiting")));
        String queued = TestJobs.submit(token, TestJobs.spec(Map.of("name", "b-queued")));
        String pulling = TestJobs.submit(token, TestJobs.spec(Map.of("name", "c-image")));
        statuses.apply(new JobStatusChanged(queued, "ext-b", JobStatus.QUEUED, "FailedScheduling",
                "0/8 nodes are available: 8 Insufficient nvidia.com/gpu.", null, Instant.now(), 1, List.of()))
                .await().indefinitely();
        statuses.apply(new JobStatusChanged(pulling, "ext-b", JobStatus.PENDING, "ImagePullBackOff",
                "Back-off pulling image \"registry.local/nlp/train:9\"", null, Instant.now(), 1, List.of()))
                .await().indefinitely();

        JsonPath zh = list(token, "zh-CN,zh;q=0.9,en;q=0.8");
        JsonPath en = list(token, "en-US");
        assertRow(zh, 0, waiting, "PENDING", "等待中", "已提交，等待集群处理");
        assertRow(en, 0, waiting, "PENDING", "Pending", "submitted, waiting for the cluster");
        assertRow(zh, 1, queued, "QUEUED", "排队中", "0/8 nodes are available: 8 Insufficient nvidia.com/gpu.");
        assertEquals("unschedulable", zh.getString("items[1].reasonCode"));
        assertEquals(en.getString("items[1].reasonCode"), zh.getString("items[1].reasonCode"));
        org.hamcrest.MatcherAssert.assertThat(zh.getString("items[1].reasonExplanation"), startsWith("暂无节点"));
        org.hamcrest.MatcherAssert.assertThat(en.getString("items[1].reasonExplanation"), startsWith("No node"));
        assertEquals("image-pull-failed", zh.getString("items[2].reasonCode"));
        org.hamcrest.MatcherAssert.assertThat(zh.getString("items[2].reasonExplanation"), startsWith("无法拉取镜像"));
        org.hamcrest.MatcherAssert.assertThat(zh.getString("items[0].queueTime"), endsWith("秒"));
        org.hamcrest.MatcherAssert.assertThat(en.getString("items[0].queueTime"), endsWith("s"));
        org.hamcrest.MatcherAssert.assertThat(zh.getString("items[0].submittedAt"), matchesPattern(MILLIS));
        org.hamcrest.MatcherAssert.assertThat(zh.getString("items[0].updatedAt"), matchesPattern(MILLIS));
        assertEquals("2*A800", zh.getString("items[0].gpu"));
        // no Accept-Language (or one naming neither language): the configured default, English here
        assertEquals("Pending", list(token, null).getString("items[0].statusText"));
        assertEquals("Pending", list(token, "fr-FR").getString("items[0].statusText"));
    }

    static void assertRow(JsonPath p, int i, String id, String status, String statusText, String message) {
        assertEquals(id, p.getString("items[" + i + "].id"));
        assertEquals(status, p.getString("items[" + i + "].status"));
        assertEquals(statusText, p.getString("items[" + i + "].statusText"));
        assertEquals(message, p.getString("items[" + i + "].message"));
    }

    @Test
    void aMessageJobmonWroteInOneLanguageReadsInTheOtherLater() {
        String id = TestJobs.submit(Tokens.alice());
        statuses.apply(TestJobs.status(id, JobStatus.RUNNING, 1, null)).await().indefinitely();
        given().auth().oauth2(Tokens.alice()).header("Accept-Language", "en").post("/api/v1/jobs/" + id + "/stop")
                .then().statusCode(200).body("message", equalTo("stopped by alice"));
        given().auth().oauth2(Tokens.alice()).header("Accept-Language", "zh-Hans").get("/api/v1/jobs/" + id + "/timeline")
                .then().statusCode(200)
                .body("items.statusText", equalTo(List.of("等待中", "运行中", "停止中")))
                .body("items[0].message", equalTo("已提交，等待集群处理"))
                .body("items[2].message", equalTo("由 alice 停止"))
                .body("items[2].reasonCode", equalTo("stopped-by-user"))
                .body("items[2].reasonExplanation", equalTo("用户停止了作业。"))
                .body("items[2].time", matchesPattern(MILLIS));
    }

    @Test
    void problemsAreWrittenInTheReadersLanguageWithTheSameTypeAndFields() {
        ZhCnText.assertChinese(given().auth().oauth2(Tokens.alice())
                .header("Accept-Language", "zh-CN").queryParam("limit", "abc")
                .get("/api/v1/jobs").then().statusCode(400).contentType("application/problem+json")
                .header("Content-Language", "zh-CN")
                .body("type", equalTo("https://jobmon.io/problems/invalid-request"))
                .body("title", equalTo("请求无效"))
                .body("errors[0].field", equalTo("limit"))
                .body("errors[0].code", equalTo("field.limit"))
                .body("errors[0].message", equalTo("必须是 1 到 500 之间的整数"))
                .extract().asString());
        given().auth().oauth2(Tokens.alice()).header("Accept-Language", "zh").get("/api/v1/jobs/j-nope")
                .then().statusCode(404).body("title", equalTo("未找到")).body("detail", equalTo("作业 j-nope 不存在"))
                .body("type", equalTo("https://jobmon.io/problems/not-found"));
        given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/j-nope").then().statusCode(404)
                .body("detail", equalTo("no job j-nope"));
        given().auth().oauth2(Tokens.alice()).header("Accept-Language", "zh").contentType("application/json")
                .body(Map.of("name", "x")).post("/api/v1/jobs").then().statusCode(400)
                .body("errors.find { it.field == 'image' }.message", startsWith("必填：镜像地址"));
        ZhCnText.assertChinese(given().header("Accept-Language", "zh-CN").get("/api/v1/jobs").then().statusCode(401)
                .body("title", equalTo("未认证")).body("detail", equalTo("需要 Bearer 令牌"))
                .extract().asString());
    }

    static void assertEquals(Object expected, Object actual) {
        org.junit.jupiter.api.Assertions.assertEquals(expected, actual);
    }
}
