package io.jobmon.logs.api;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import io.jobmon.logs.Fixtures;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.jobmon.testsupport.ZhCnText;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** log-service's problems read in the caller's language; the field and the code a client switches on do not change. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
class ProblemLanguageTest {

    @Test
    void aBadParameterIsExplainedInChineseOrEnglish() {
        // the values a parameter may take are the API's codes
        ZhCnText.rules().allow("forward", "backward").check(given().auth().oauth2(Tokens.alice())
                .header("Accept-Language", "zh-CN")
                .get("/api/v1/jobs/j-any/logs?limit=abc&direction=sideways").then().statusCode(400)
                .contentType("application/problem+json").header("Content-Language", "zh-CN")
                .body("title", equalTo("请求无效"))
                .body("errors.find { it.field == 'limit' }.message", equalTo("必须是 1 到 500 之间的整数"))
                .body("errors.find { it.field == 'direction' }.code", equalTo("field.one-of"))
                .body("errors.find { it.field == 'direction' }.message", equalTo("必须是以下之一：forward, backward"))
                .extract().asString());
        given().auth().oauth2(Tokens.alice()).header("Accept-Language", "en")
                .get("/api/v1/jobs/j-any/logs?limit=abc").then().statusCode(400)
                .body("title", equalTo("Bad Request"))
                .body("errors[0].field", equalTo("limit"))
                .body("errors[0].message", equalTo("must be a whole number from 1 to 500"));
    }

    @Test
    void aBadRegexIsA400InTheReadersLanguage() {
        String id = Fixtures.newJob();
        Fixtures.publish(Fixtures.job(id, "PRIVATE", List.of(), List.of(id + "-w0"), 1));
        await().atMost(Duration.ofSeconds(60)).until(() -> given().auth().oauth2(Tokens.alice())
                .get("/api/v1/jobs/" + id + "/logs").statusCode() == 200);
        ZhCnText.assertChinese(given().auth().oauth2(Tokens.alice()).header("Accept-Language", "zh-CN")
                .get("/api/v1/jobs/" + id + "/logs?regex=(unclosed").then().statusCode(400)
                .body("errors[0].field", equalTo("regex")).body("errors[0].code", equalTo("logs.regex"))
                .extract().asString());
    }
}
