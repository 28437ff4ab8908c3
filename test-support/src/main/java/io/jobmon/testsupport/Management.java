package io.jobmon.testsupport;

import io.quarkus.test.common.http.TestHTTPResourceManager;

/** URLs on the management interface of the service under test (probes, Prometheus, OpenAPI: never the API port). */
public final class Management {

    private Management() {
    }

    @SuppressWarnings("removal")
    public static String url(String path) {
        // The test URL of the management interface ends with its root path (/q); paths here name it themselves.
        String base = TestHTTPResourceManager.getManagementUri().replaceAll("/+$", "");
        return (base.endsWith("/q") ? base.substring(0, base.length() - 2) : base) + path;
    }

    /**
     * The service's readiness, asserting it answered within 5 s whatever is down (it is bounded to ~1 s; the
     * margin is for a loaded machine — a readiness that waits on a dead broker takes 30 s and more).
     */
    public static io.restassured.response.Response ready() {
        long start = System.nanoTime();
        io.restassured.response.Response r = io.restassured.RestAssured.given().get(url("/q/health/ready"));
        long ms = (System.nanoTime() - start) / 1_000_000;
        if (ms >= 5000) {
            throw new AssertionError("readiness took " + ms + " ms");
        }
        return r;
    }

    /** The sum of a Prometheus metric's samples whose line contains {@code label} (e.g. {@code channel="x"}). */
    public static double metric(String name, String label) {
        String text = io.restassured.RestAssured.given().get(url("/q/metrics")).then().statusCode(200).extract()
                .asString();
        return text.lines().filter(l -> l.startsWith(name) && l.contains(label))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }
}
