package io.jobmon.diagnosis.task;

import static io.restassured.RestAssured.given;

import io.jobmon.diagnosis.support.Diagnoses;
import io.jobmon.diagnosis.support.EvidenceServer;
import io.jobmon.diagnosis.support.Jobs;
import io.jobmon.diagnosis.support.Samples;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import io.restassured.specification.RequestSpecification;
import java.time.Instant;
import java.util.function.Supplier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Who may read and ask a job's diagnoses: whoever may VIEW the job (owner, shared user, project member of a
 * PROJECT job, the tenant's admin); everybody else gets 404, another tenant's admin included.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithTestResource(EvidenceServer.class)
class AccessMatrixTest {

    /** alice's PRIVATE job shared with carol, and alice's PROJECT job of project-nlp; one DONE diagnosis each. */
    private static String privateJob;
    private static String projectJob;
    private static String privateDiagnosis;
    private static String projectDiagnosis;

    private static synchronized void jobs() {
        if (privateJob != null) {
            return;
        }
        privateJob = Jobs.job(Jobs.newId("private")).shares("carol").publish();
        projectJob = Jobs.job(Jobs.newId("project")).project("project-nlp", "PROJECT").publish();
        EvidenceServer.serve(privateJob, Samples.recent("004-image_pull_failed.json", privateJob, Instant.now()));
        EvidenceServer.serve(projectJob, Samples.recent("004-image_pull_failed.json", projectJob, Instant.now()));
        privateDiagnosis = Diagnoses.ask(Tokens.alice(), privateJob, "{}");
        projectDiagnosis = Diagnoses.ask(Tokens.alice(), projectJob, "{}");
        Diagnoses.awaitFinished(Tokens.alice(), privateDiagnosis);
        Diagnoses.awaitFinished(Tokens.alice(), projectDiagnosis);
    }

    @ParameterizedTest(name = "{0} on the private job: {1}, on the project job: {2}")
    @CsvSource({
        "anonymous,   401, 401",
        "owner,       200, 200",
        "sharedUser,  200, 404",
        "projectMember, 404, 200",
        "otherProjectUser, 404, 404",
        "otherUser,   404, 404",
        "otherTenantUser, 404, 404",
        "otherTenantAdmin, 404, 404",
        "admin,       200, 200",
    })
    void accessFollowsTheJobsRule(String caller, int onPrivate, int onProject) {
        jobs();
        check(caller, privateJob, privateDiagnosis, onPrivate);
        check(caller, projectJob, projectDiagnosis, onProject);
    }

    private static void check(String caller, String job, String diagnosis, int status) {
        Supplier<RequestSpecification> as = () -> spec(caller);
        as.get().get("/api/v1/jobs/" + job + "/diagnoses").then().statusCode(status)
                .contentType(status == 200 ? "application/json" : "application/problem+json");
        as.get().get("/api/v1/diagnoses/" + diagnosis).then().statusCode(status);
        as.get().contentType("application/json").body("{}").post("/api/v1/jobs/" + job + "/diagnoses").then()
                .statusCode(status == 200 ? 202 : status);
        as.get().contentType("application/json").body("{\"verdict\": \"ACCURATE\"}")
                .post("/api/v1/diagnoses/" + diagnosis + "/feedback").then().statusCode(status == 200 ? 201 : status);
    }

    private static RequestSpecification spec(String caller) {
        String token = switch (caller) {
            case "anonymous" -> null;
            case "owner" -> Tokens.alice();
            case "sharedUser" -> Tokens.carol();
            case "projectMember" -> Tokens.bob();
            case "otherProjectUser" -> Tokens.user("frank").groups("project-cv").get();
            case "otherUser" -> Tokens.user("erin").get();
            case "otherTenantUser" -> Tokens.dave();
            case "otherTenantAdmin" -> Tokens.user("root").tenant("t2").groups("project-nlp").roles("admin", "user").get();
            case "admin" -> Tokens.admin();
            default -> throw new IllegalArgumentException(caller);
        };
        return token == null ? given() : given().auth().oauth2(token);
    }
}
