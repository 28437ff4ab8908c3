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

    /** The sum of a Prometheus metric's samples whose line contains {@code label} (e.g. {@code channel="x"}). */
    public static double metric(String name, String label) {
        String text = io.restassured.RestAssured.given().get(url("/q/metrics")).then().statusCode(200).extract()
                .asString();
        return text.lines().filter(l -> l.startsWith(name) && l.contains(label))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }
}
