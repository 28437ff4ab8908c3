package io.jobmon.diagnosis.support;

import static io.restassured.RestAssured.given;

import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.Awaitility;

/** Asking diagnoses and waiting for them through the API. */
public final class Diagnoses {

    private Diagnoses() {
    }

    /** Asks a diagnosis of the job with {@code body}; returns its id. */
    public static String ask(String token, String jobId, String body) {
        return given().auth().oauth2(token).contentType("application/json").body(body)
                .post("/api/v1/jobs/" + jobId + "/diagnoses").then().statusCode(202).extract().path("id");
    }

    /** Waits until the diagnosis is DONE or FAILED; returns it. */
    public static JsonPath awaitFinished(String token, String id) {
        AtomicReference<JsonPath> last = new AtomicReference<>();
        Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300)).until(() -> {
            JsonPath d = given().auth().oauth2(token).get("/api/v1/diagnoses/" + id).then().statusCode(200)
                    .extract().jsonPath();
            last.set(d);
            return "DONE".equals(d.getString("status")) || "FAILED".equals(d.getString("status"));
        });
        return last.get();
    }

    /** The job's diagnoses as the owner sees them, newest first. */
    public static JsonPath history(String token, String jobId) {
        return given().auth().oauth2(token).get("/api/v1/jobs/" + jobId + "/diagnoses?limit=500").then()
                .statusCode(200).extract().jsonPath();
    }
}
