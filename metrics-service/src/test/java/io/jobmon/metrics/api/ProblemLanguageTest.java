package io.jobmon.metrics.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.jobmon.testsupport.ZhCnText;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import org.junit.jupiter.api.Test;

/** metrics-service's problems read in the caller's language; the field and the code a client switches on do not change. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
class ProblemLanguageTest {

    @Test
    void anUnknownMetricIsExplainedInChineseOrEnglish() {
        String zh = given().auth().oauth2(Tokens.alice()).header("Accept-Language", "zh-CN")
                .get("/api/v1/jobs/j-any/metrics?metric=gpu_nope").then().statusCode(400)
                .contentType("application/problem+json").header("Content-Language", "zh-CN")
                .body("title", equalTo("请求无效"))
                .body("errors[0].field", equalTo("metric")).body("errors[0].code", equalTo("metrics.unknown-metric"))
                .body("errors[0].message", equalTo("未知指标 'gpu_nope'；GET /api/v1/metrics/catalogue 列出全部指标"))
                .extract().asString();
        ZhCnText.assertChinese(zh);
        given().auth().oauth2(Tokens.alice()).header("Accept-Language", "en")
                .get("/api/v1/jobs/j-any/metrics?groupBy=rack").then().statusCode(400)
                .body("title", equalTo("Bad Request")).body("errors[0].field", equalTo("groupBy"))
                .body("errors[0].message", equalTo("must be one of job, pod, node, gpu, container"));
    }

    @Test
    void aUsersTokenOnRemoteWriteIsAForbiddenProblemInTheReadersLanguage() {
        given().auth().oauth2(Tokens.alice()).header("Accept-Language", "zh-CN").contentType("application/x-protobuf")
                .body(new byte[] {1, 2, 3}).post("/api/v1/write").then().statusCode(403)
                .contentType("application/problem+json").header("Content-Language", "zh-CN")
                .body("type", equalTo("https://jobmon.io/problems/forbidden"));
    }

    @Test
    void aUserDeniedTheOverviewOrANodeIsToldWhatOnlyAnAdminMaySee() {
        for (String[] denied : new String[][] {{"/api/v1/metrics/overview", "只有平台管理员可以查看集群概览",
            "only an admin of the platform may see the cluster overview"},
            {"/api/v1/nodes/any/metrics", "只有平台管理员可以查看节点的图表",
                "only an admin of the platform may see the charts of a node"},
            {"/api/v1/metrics/targets", "只有平台管理员可以查看抓取目标",
                "only an admin of the platform may see the scrape targets"}}) {
            ZhCnText.assertChinese(given().auth().oauth2(Tokens.alice()).header("Accept-Language", "zh-CN")
                    .get(denied[0]).then().statusCode(403).body("detail", equalTo(denied[1])).extract().asString());
            given().auth().oauth2(Tokens.alice()).header("Accept-Language", "en").get(denied[0]).then()
                    .statusCode(403).body("detail", equalTo(denied[2]));
        }
    }

    @Test
    void theCatalogueTitlesEveryMetricInTheReadersLanguage() {
        ZhCnText.assertChinese(given().auth().oauth2(Tokens.alice()).header("Accept-Language", "zh-CN")
                .get("/api/v1/metrics/catalogue").then().statusCode(200)
                .body("items.find { it.name == 'gpu_util' }.title", equalTo("GPU 利用率"))
                .body("items.find { it.name == 'ecc_dbe' }.title", equalTo("ECC 双比特错误")).extract().asString());
        given().auth().oauth2(Tokens.alice()).header("Accept-Language", "en").get("/api/v1/metrics/catalogue").then()
                .statusCode(200).body("items.find { it.name == 'gpu_util' }.title", equalTo("GPU utilisation"));
    }
}
