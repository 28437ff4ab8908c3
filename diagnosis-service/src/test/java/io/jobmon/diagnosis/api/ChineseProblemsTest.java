package io.jobmon.diagnosis.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import io.jobmon.diagnosis.support.EvidenceServer;
import io.jobmon.diagnosis.support.Jobs;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.jobmon.testsupport.ZhCnText;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import org.junit.jupiter.api.Test;

/** diagnosis-service's 400s read in Chinese under zh-CN, each field error with its code. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithTestResource(EvidenceServer.class)
class ChineseProblemsTest {

    private static String zh(String path, String body, String field, String code, String message) {
        return given().auth().oauth2(Tokens.alice()).header("Accept-Language", "zh-CN").contentType("application/json")
                .body(body).post(path).then().statusCode(400).contentType("application/problem+json")
                .body("title", equalTo("请求无效")).body("errors[0].field", equalTo(field))
                .body("errors[0].code", equalTo(code))
                .body("errors[0].message", message == null ? startsWith("请求体不是合法的 JSON") : equalTo(message))
                .extract().asString();
    }

    @Test
    void aTaskRequestsFieldsAreExplainedInChinese() {
        String job = "/api/v1/jobs/" + Jobs.job(Jobs.newId("zh")).publish() + "/diagnoses";
        ZhCnText.assertChinese(zh(job, "{\"hint\": \"" + "x".repeat(4001) + "\"}", "hint", "field.max-length",
                "最多 4000 个字符"));
        ZhCnText.assertChinese(zh(job, "{\"metrics\": [\"gpu util\"]}", "metrics[0]", "diagnosis.metric-name",
                "不是指标名（最多 64 个字母、数字、'_'、':' 或 '.'）"));
        ZhCnText.assertChinese(zh(job, "{\"from\": \"2026-01-01T01:00:00Z\", \"to\": \"2026-01-01T00:00:00Z\"}", "from",
                "field.before", "必须早于 'to'"));
        ZhCnText.assertChinese(zh(job, "{\"from\": \"2026-01-01T00:00:00Z\", \"to\": \"2026-01-01T02:00:00Z\"}", "to",
                "diagnosis.window-max", "时间窗口最长 30 分钟"));
        ZhCnText.assertChinese(zh("/api/v1/diagnoses/dg-none/feedback", "{}", "verdict", "field.one-of",
                "必须是以下之一：ACCURATE, POOR"));
    }

    @Test
    void aMalformedBundleIsExplainedInChinese() {
        ZhCnText.assertChinese(zh("/api/v1/diagnoses/analyze", "{\"logs\": [{\"time\": 5}]}", "logs[0].time",
                "json.expected.string", "应为字符串"));
        ZhCnText.assertChinese(zh("/api/v1/diagnoses/analyze", "{\"metrics\": [{\"samples\": [[\"x\", 1]]}]}",
                "metrics[0].samples[0]", "bundle.sample-time", "样本时间必须是 RFC 3339 时间或自纪元起的秒数"));
        ZhCnText.assertChinese(zh("/api/v1/diagnoses/analyze", "{\"job\": ", "$", "json.malformed-at",
                null));
    }
}
