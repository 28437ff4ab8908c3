package io.jobmon.gateway.routing;

import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Which service owns which public path (api.md). The first matching rule wins, so the job sub-resources
 * owned by other services come before the job-service catch-all.
 */
public final class RouteTable {

    private record Rule(Pattern path, String service) {
    }

    private static final String JOB = "/api/v1/jobs/[^/]+";

    private static final List<Rule> RULES = List.of(
            new Rule(Pattern.compile(JOB + "/events(/.*)?"), "events"),
            new Rule(Pattern.compile(JOB + "/logs(/.*)?"), "logs"),
            new Rule(Pattern.compile(JOB + "/metrics(/.*)?"), "metrics"),
            new Rule(Pattern.compile(JOB + "/gpus"), "metrics"),
            new Rule(Pattern.compile(JOB + "/alerts"), "metrics"),
            new Rule(Pattern.compile(JOB + "/diagnoses(/.*)?"), "diagnosis"),
            new Rule(Pattern.compile("/api/v1/diagnoses(/.*)?"), "diagnosis"),
            new Rule(Pattern.compile("/api/v1/nodes/[^/]+/logs(/.*)?"), "logs"),
            new Rule(Pattern.compile("/api/v1/nodes/.+"), "metrics"),
            new Rule(Pattern.compile("/api/v1/metrics(/.*)?"), "metrics"),
            new Rule(Pattern.compile("/api/v1/write"), "metrics"),
            new Rule(Pattern.compile("/api/v1/alerts(/.*)?"), "metrics"),
            new Rule(Pattern.compile("/api/v1/jobs(/.*)?"), "job"),
            // job-service's lookups: the values behind the console's filters, forms and the share dialog
            new Rule(Pattern.compile("/api/v1/(clusters|queues|projects|tags|users)"), "job"));

    private RouteTable() {
    }

    /** The route name ({@code job}, {@code events}, ...) that serves {@code path}, if any service does. */
    public static Optional<String> serviceFor(String path) {
        return RULES.stream().filter(r -> r.path().matcher(path).matches()).map(Rule::service).findFirst();
    }

    /** Every route name the table knows. */
    public static List<String> services() {
        return RULES.stream().map(Rule::service).distinct().toList();
    }
}
