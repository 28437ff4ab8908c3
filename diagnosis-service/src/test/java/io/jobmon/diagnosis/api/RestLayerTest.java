package io.jobmon.diagnosis.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.matchesPattern;

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

/** What a page builder meets at diagnosis-service's edge: strict parameters, Chinese problems, times to the ms. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithTestResource(EvidenceServer.class)
class RestLayerTest {

    @Test
    void aLimitThatIsNotAWholeNumberIsA400NotA404() {
        String job = Jobs.job(Jobs.newId("limit")).publish();
        for (String limit : new String[] {"abc", "0", "501", "1.5"}) {
            given().auth().oauth2(Tokens.alice()).queryParam("limit", limit).get("/api/v1/jobs/" + job + "/diagnoses")
                    .then().statusCode(400).contentType("application/problem+json")
                    .body("errors[0].field", equalTo("limit")).body("errors[0].code", equalTo("field.limit"));
        }
    }

    @Test
    void problemsReadInChineseAndAnUnknownJobReadsAsInEveryService() {
        ZhCnText.assertChinese(given().auth().oauth2(Tokens.alice())
                .header("Accept-Language", "zh-CN").get("/api/v1/jobs/j-none/diagnoses")
                .then().statusCode(404).body("title", equalTo("未找到")).body("detail", equalTo("作业 j-none 不存在"))
                .body("type", equalTo("https://jobmon.io/problems/not-found"))
                .extract().asString());
        ZhCnText.assertChinese(given().auth().oauth2(Tokens.alice())
                .header("Accept-Language", "zh-CN").contentType("text/plain; charset=UTF-8").body("x")
                .post("/api/v1/diagnoses/analyze").then().statusCode(415)
                .body("detail", equalTo("请以 application/json 发送证据包"))
                .extract().asString());
        given().auth().oauth2(Tokens.alice()).contentType("application/json").body("{\"hint\": 5}")
                .post("/api/v1/jobs/" + Jobs.job(Jobs.newId("types")).publish() + "/diagnoses").then().statusCode(400)
                .body("errors[0].field", equalTo("hint")).body("errors[0].code", equalTo("json.expected.string"));
    }

    @Test
    void aNewDiagnosisNamesItsLocationAndItsTimesAreToTheMillisecond() {
        String job = Jobs.job(Jobs.newId("loc")).publish();
        given().auth().oauth2(Tokens.alice()).contentType("application/json").body("{}")
                .post("/api/v1/jobs/" + job + "/diagnoses").then().statusCode(202)
                .header("Location", containsString("/api/v1/diagnoses/dg-"))
                .body("createdAt", matchesPattern("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z"));
    }
}
