package io.jobmon.metrics.alerts;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.contracts.events.JobStatus;
import io.jobmon.metrics.Fixtures;
import io.jobmon.metrics.Sql;
import io.jobmon.testsupport.Alertmanager;
import io.jobmon.testsupport.AlertmanagerTestResource;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.jobmon.testsupport.ZhCnText;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import io.restassured.path.json.JsonPath;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import java.net.URL;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Alerts through the API against a real Alertmanager 0.25: who sees which alert, texts in both languages, tenant
 * silences, and the resolved alerts Alertmanager's webhook leaves in the history.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithTestResource(AlertmanagerTestResource.class)
class AlertsApiTest {

    static final Duration WAIT = Duration.ofSeconds(30);
    static final String ADMIN2 = Tokens.user("admin2").tenant("t2").roles("admin", "user").get();

    @TestHTTPResource("/internal/v1/alerts/webhook")
    URL webhook;
    @Inject
    Pool pool;
    @Inject
    AlertRetention retention;

    /** A running job of alice's, private, known to metrics-service's access read model. */
    static String job() {
        String job = Fixtures.newId("al");
        Fixtures.sendJob(Fixtures.job(job, JobStatus.RUNNING, List.of(job + "-0"), List.of("node-" + job), 2,
                Instant.now().minusSeconds(3600), null, 1), Instant.now());
        await().atMost(WAIT).until(() -> given().auth().oauth2(Tokens.alice()).get("/api/v1/jobs/" + job + "/alerts")
                .statusCode() == 200);
        return job;
    }

    /** The idle-GPU alert of the job rules, as Prometheus posts it (endsAt: when it resolves unless renewed). */
    static String idle(String job, Instant endsAt) {
        return idle(job, START, endsAt);
    }

    /** Prometheus' times are milliseconds, as the API's. */
    static final Instant START = Instant.now().minusSeconds(60).truncatedTo(java.time.temporal.ChronoUnit.MILLIS);

    static String idle(String job, Instant startsAt, Instant endsAt) {
        return "{\"labels\":{\"alertname\":\"JobGpusIdle\",\"job_id\":\"" + job + "\",\"tenant\":\"t1\",\"owner\":\"alice\","
                + "\"queue\":\"default\",\"cluster\":\"sim\",\"severity\":\"warning\",\"component\":\"jobs\"},"
                + "\"annotations\":{\"summary\":\"Job " + job + " (alice): 2 GPUs idle for 30 minutes\","
                + "\"description\":\"2 GPUs allocated to job " + job + " are idle\"},\"startsAt\":\"" + startsAt
                + "\",\"endsAt\":\"" + endsAt + "\"}";
    }

    static String other(String name, String labels) {
        return "{\"labels\":{\"alertname\":\"" + name + "\"," + labels + "},\"annotations\":{\"summary\":\"" + name
                + "\"},\"endsAt\":\"" + Instant.now().plusSeconds(3600) + "\"}";
    }

    static JsonPath alerts(String token, String path) {
        return given().auth().oauth2(token).get(path).then().statusCode(200).extract().jsonPath();
    }

    @Test
    void whoSeesWhichAlert() {
        String job = job();
        String node = Fixtures.newId("gpu-node");
        String t2 = Fixtures.newId("T2Alert");
        Alertmanager.shared().post("[" + idle(job, Instant.now().plusSeconds(3600)) + ","
                + other("NodeDown", "\"node\":\"" + node + "\",\"cluster\":\"sim\",\"severity\":\"critical\"") + ","
                + other(t2, "\"tenant\":\"t2\",\"severity\":\"warning\"") + "]");
        String path = "/api/v1/jobs/" + job + "/alerts";
        await().atMost(WAIT).until(() -> alerts(Tokens.alice(), path).getList("items").size() == 1);
        given().auth().oauth2(Tokens.alice()).get(path).then().statusCode(200)
                .body("items[0].alertname", equalTo("JobGpusIdle")).body("items[0].state", equalTo("firing"))
                .body("items[0].jobId", equalTo(job)).body("items[0].severity", equalTo("warning"))
                .body("items[0].summary", equalTo("Job " + job + " (alice): 2 GPUs idle for 30 minutes"))
                .body("items[0].id", not(equalTo(null))).body("items[0].since", not(equalTo(null)));
        String zh = given().auth().oauth2(Tokens.alice()).header("Accept-Language", "zh-CN").get(path).then()
                .statusCode(200).body("items[0].summary", equalTo("作业 " + job + " 的 GPU 已空闲 30 分钟"))
                .body("items[0].description", containsString("“default”")).extract().asString();
        ZhCnText.rules().notText("alertname", "severity").check(zh);
        // the access matrix of the job's alerts: its VIEW permission, else 404; no token 401
        given().auth().oauth2(Tokens.admin()).get(path).then().statusCode(200).body("items.size()", equalTo(1));
        for (String token : List.of(Tokens.bob(), Tokens.dave(), ADMIN2)) {
            given().auth().oauth2(token).get(path).then().statusCode(404).contentType("application/problem+json");
        }
        given().get(path).then().statusCode(401);
        given().get("/api/v1/alerts").then().statusCode(401);
        // the list: a user sees the job alerts of the jobs they may view; admins also node alerts and their tenant's
        assertEquals(List.of("JobGpusIdle"), names(alerts(Tokens.alice(), "/api/v1/alerts?state=firing"), job, node, t2));
        assertEquals(List.of(), names(alerts(Tokens.bob(), "/api/v1/alerts"), job, node, t2));
        assertEquals(List.of(), names(alerts(Tokens.dave(), "/api/v1/alerts"), job, node, t2));
        assertEquals(List.of("JobGpusIdle", "NodeDown"), names(alerts(Tokens.admin(), "/api/v1/alerts"), job, node, t2));
        assertEquals(List.of("NodeDown", t2), names(alerts(ADMIN2, "/api/v1/alerts"), job, node, t2));
        // parameters
        given().auth().oauth2(Tokens.alice()).get("/api/v1/alerts?state=open&limit=0&since=yesterday").then()
                .statusCode(400).body("errors.field", hasItems("state", "limit", "since"));
        given().auth().oauth2(Tokens.alice()).get("/api/v1/alerts?since=" + Instant.now().minus(Duration.ofDays(40)))
                .then().statusCode(400).body("errors[0].field", equalTo("since"));
        given().auth().oauth2(Tokens.alice()).get("/api/v1/alerts?cursor=nope").then().statusCode(400)
                .body("errors[0].field", equalTo("cursor"));
    }

    /** The alertnames among the list's items that are about the test's job, node or tenant-2 alert, sorted. */
    static List<String> names(JsonPath page, String job, String node, String t2) {
        List<java.util.Map<String, Object>> items = page.getList("items");
        return items.stream().filter(i -> job.equals(i.get("jobId")) || node.equals(i.get("node"))
                || t2.equals(i.get("alertname"))).map(i -> (String) i.get("alertname")).sorted().toList();
    }

    @Test
    void anAdminsSilenceHidesTheTenantsAlertAndNoOtherTenants() {
        String job = job();
        String t2 = Fixtures.newId("T2Silenced");
        Alertmanager.shared().post("[" + idle(job, Instant.now().plusSeconds(3600)) + ","
                + other(t2, "\"tenant\":\"t2\",\"severity\":\"warning\"") + "]");
        String path = "/api/v1/jobs/" + job + "/alerts";
        await().atMost(WAIT).until(() -> alerts(Tokens.alice(), path).getList("items").size() == 1);
        String body = "{\"matchers\":[{\"name\":\"job_id\",\"value\":\"" + job + "\"},{\"name\":\"alertname\","
                + "\"value\":\".+\",\"isRegex\":true}],\"duration\":\"1h\",\"comment\":\"restarting the job\"}";
        given().auth().oauth2(Tokens.alice()).contentType("application/json").body(body).post("/api/v1/alerts/silences")
                .then().statusCode(403).contentType("application/problem+json");
        String id = given().auth().oauth2(Tokens.admin()).contentType("application/json").body(body)
                .post("/api/v1/alerts/silences").then().statusCode(201).body("createdBy", equalTo("admin"))
                .header("Location", org.hamcrest.Matchers.startsWith("/api/v1/alerts/silences/"))
                .body("matchers.find { it.name == 'tenant' }.value", equalTo("t1")).body("state", equalTo("active"))
                .extract().path("id");
        await().atMost(WAIT).until(() -> "silenced".equals(alerts(Tokens.alice(), path).getString("items[0].state")));
        assertEquals(List.of(id), alerts(Tokens.alice(), path).getList("items[0].silencedBy"));
        // a silence of everything in t1 leaves tenant 2's alerts alone
        String all = given().auth().oauth2(Tokens.admin()).contentType("application/json")
                .body("{\"matchers\":[{\"name\":\"alertname\",\"value\":\".+\",\"isRegex\":true}],\"endsAt\":\""
                        + Instant.now().plusSeconds(600) + "\",\"comment\":\"maintenance\"}")
                .post("/api/v1/alerts/silences").then().statusCode(201).extract().path("id");
        await().atMost(WAIT).until(() -> Alertmanager.shared().get("/api/v2/alerts?filter=job_id%3D%22" + job + "%22")
                .contains(all));
        given().auth().oauth2(ADMIN2).get("/api/v1/alerts?state=firing").then().statusCode(200)
                .body("items.find { it.alertname == '" + t2 + "' }.state", equalTo("firing"));
        // another tenant's admin neither lists nor expires them
        given().auth().oauth2(ADMIN2).get("/api/v1/alerts/silences").then().statusCode(200)
                .body("items.id", not(hasItem(id)));
        given().auth().oauth2(ADMIN2).delete("/api/v1/alerts/silences/" + id).then().statusCode(404);
        given().auth().oauth2(ADMIN2).get("/api/v1/alerts/silences/" + id).then().statusCode(404);
        given().auth().oauth2(Tokens.admin()).get("/api/v1/alerts/silences/" + id).then().statusCode(200)
                .body("comment", equalTo("restarting the job"));
        given().auth().oauth2(Tokens.admin()).get("/api/v1/alerts/silences").then().statusCode(200)
                .body("items.id", hasItems(id, all));
        given().auth().oauth2(Tokens.admin()).delete("/api/v1/alerts/silences/" + id).then().statusCode(204);
        given().auth().oauth2(Tokens.admin()).delete("/api/v1/alerts/silences/" + all).then().statusCode(204);
        given().auth().oauth2(Tokens.admin()).delete("/api/v1/alerts/silences/no-such-silence").then().statusCode(404);
        await().atMost(WAIT).until(() -> "firing".equals(alerts(Tokens.alice(), path).getString("items[0].state")));
    }

    @Test
    void aSilenceIsValidatedBeforeAlertmanagerSeesIt() {
        for (String[] c : new String[][] {
            {"{\"matchers\":[{\"name\":\"alertname\",\"value\":\"X\"}],\"duration\":\"1h\"}", "comment"},
            {"{\"matchers\":[{\"name\":\"tenant\",\"value\":\"t2\"}],\"duration\":\"1h\",\"comment\":\"c\"}", "matchers[0].name"},
            {"{\"matchers\":[{\"name\":\"0bad\",\"value\":\"X\"}],\"duration\":\"1h\",\"comment\":\"c\"}", "matchers[0].name"},
            {"{\"matchers\":[],\"duration\":\"1h\",\"comment\":\"c\"}", "matchers"},
            {"{\"matchers\":[{\"name\":\"a\",\"value\":\"(\",\"isRegex\":true}],\"duration\":\"1h\",\"comment\":\"c\"}", "matchers[0].value"},
            {"{\"matchers\":[{\"name\":\"a\",\"value\":\"X\"}],\"duration\":\"soon\",\"comment\":\"c\"}", "duration"},
            {"{\"matchers\":[{\"name\":\"a\",\"value\":\"X\"}],\"duration\":\"90d\",\"comment\":\"c\"}", "duration"},
            {"{\"matchers\":[{\"name\":\"a\",\"value\":\"X\"}],\"comment\":\"c\"}", "endsAt"},
            {"{\"matchers\":[{\"name\":\"a\",\"value\":\"X\"}],\"endsAt\":\"2020-01-01T00:00:00Z\",\"comment\":\"c\"}", "endsAt"},
            // Java takes a lookahead, Go's regular expressions (Alertmanager's) do not
            {"{\"matchers\":[{\"name\":\"a\",\"value\":\"(?=x)x\",\"isRegex\":true}],\"duration\":\"1h\",\"comment\":\"c\"}", "matchers"}}) {
            given().auth().oauth2(Tokens.admin()).contentType("application/json").body(c[0]).post("/api/v1/alerts/silences")
                    .then().statusCode(400).contentType("application/problem+json").body("errors.field", hasItem(c[1]));
        }
    }

    @Test
    void resolvedAlertsComeFromAlertmanagersWebhookAndStay() {
        String job = job();
        Alertmanager am = Alertmanager.shared();
        am.routeTo(webhook.toString(), Tokens.user("alertmanager").roles("metrics-writer").get());
        am.post("[" + idle(job, Instant.now().plusSeconds(3600)) + "]");
        await().atMost(WAIT).until(() -> Sql.count(pool, "SELECT count(*) FROM alert_history WHERE job_id = $1"
                + " AND status = 'firing'", job) == 1);
        am.post("[" + idle(job, Instant.now().minusSeconds(1)) + "]");
        String path = "/api/v1/jobs/" + job + "/alerts";
        await().atMost(WAIT).until(() -> alerts(Tokens.alice(), path + "?state=resolved").getList("items").size() == 1);
        JsonPath all = alerts(Tokens.alice(), path);
        assertEquals(List.of("resolved"), all.getList("items.state"));
        assertTrue(all.getString("items[0].endsAt") != null);
        assertEquals(List.of(), alerts(Tokens.alice(), path + "?state=firing").getList("items"));
        given().auth().oauth2(Tokens.bob()).get("/api/v1/alerts?state=resolved").then().statusCode(200)
                .body("items.jobId", not(hasItem(job)));
        given().auth().oauth2(Tokens.alice()).get("/api/v1/alerts?state=resolved").then().statusCode(200)
                .body("items.jobId", hasItem(job));
        // re-sent notifications change nothing; users and bad bodies are refused
        String fp = alerts(Tokens.alice(), path).getString("items[0].id");
        String note = "{\"version\":\"4\",\"status\":\"resolved\",\"alerts\":[{\"status\":\"resolved\",\"labels\":"
                + "{\"alertname\":\"JobGpusIdle\",\"job_id\":\"" + job + "\",\"tenant\":\"t1\"},\"annotations\":{},"
                + "\"startsAt\":\"" + all.getString("items[0].since") + "\",\"endsAt\":\"" + Instant.now()
                + "\",\"fingerprint\":\"" + fp + "\"}]}";
        String writer = Tokens.user("alertmanager").roles("metrics-writer").get();
        for (int i = 0; i < 2; i++) {
            given().auth().oauth2(writer).contentType("application/json").body(note).post("/internal/v1/alerts/webhook")
                    .then().statusCode(204);
        }
        assertEquals(1, Sql.count(pool, "SELECT count(*) FROM alert_history WHERE job_id = $1", job));
        given().auth().oauth2(Tokens.alice()).contentType("application/json").body(note).post("/internal/v1/alerts/webhook")
                .then().statusCode(403);
        given().contentType("application/json").body(note).post("/internal/v1/alerts/webhook").then().statusCode(401);
        given().auth().oauth2(writer).contentType("application/json").body("{\"version\":\"3\",\"alerts\":[]}")
                .post("/internal/v1/alerts/webhook").then().statusCode(400).contentType("application/problem+json");
        // retention: 30 days after it ended it is gone
        retention.apply(Instant.now().plus(Duration.ofDays(31))).await().atMost(WAIT);
        assertEquals(0, Sql.count(pool, "SELECT count(*) FROM alert_history WHERE job_id = $1", job));
        assertFalse(alerts(Tokens.alice(), path).getList("items.id").contains(fp));
    }

    /** Firing (Alertmanager) and resolved (history) alerts of a job, newest first, a page at a time, none twice. */
    @Test
    void aListIsPagedNewestFirstAcrossAlertmanagerAndTheHistory() {
        String job = job();
        Instant t = START.minusSeconds(600);
        Alertmanager.shared().post("[" + idle(job, t.plusSeconds(250), Instant.now().plusSeconds(3600)) + "]");
        String writer = Tokens.user("alertmanager").roles("metrics-writer").get();
        StringBuilder alerts = new StringBuilder();
        for (int i = 0; i < 4; i++) {
            alerts.append(i == 0 ? "" : ",").append("{\"status\":\"resolved\",\"labels\":{\"alertname\":\"GpuXidError\",")
                    .append("\"job_id\":\"").append(job).append("\",\"gpu\":\"").append(i).append("\"},\"startsAt\":\"")
                    .append(t.plusSeconds(i * 100L)).append("\",\"endsAt\":\"").append(Instant.now())
                    .append("\",\"fingerprint\":\"").append(Fixtures.newId("f")).append("\"}");
        }
        given().auth().oauth2(writer).contentType("application/json").body("{\"version\":\"4\",\"alerts\":[" + alerts + "]}")
                .post("/internal/v1/alerts/webhook").then().statusCode(204);
        String path = "/api/v1/jobs/" + job + "/alerts?limit=2";
        await().atMost(WAIT).until(() -> alerts(Tokens.alice(), "/api/v1/jobs/" + job + "/alerts").getList("items").size() == 5);
        List<String> seen = new java.util.ArrayList<>();
        List<String> since = new java.util.ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            JsonPath page = alerts(Tokens.alice(), path + (cursor == null ? "" : "&cursor=" + cursor));
            seen.addAll(page.getList("items.id"));
            since.addAll(page.getList("items.since"));
            cursor = page.getString("nextCursor");
            pages++;
        } while (cursor != null && pages < 10);
        assertEquals(3, pages);
        assertEquals(5, new java.util.HashSet<>(seen).size());
        List<String> sorted = new java.util.ArrayList<>(since);
        sorted.sort(java.util.Comparator.reverseOrder());
        assertEquals(sorted, since);
        // the firing one (started at t + 250 s) sits among the resolved ones by its start
        assertEquals(List.of("resolved", "firing", "resolved", "resolved", "resolved"), states(job));
    }

    static List<String> states(String job) {
        return alerts(Tokens.alice(), "/api/v1/jobs/" + job + "/alerts").getList("items.state");
    }
}
