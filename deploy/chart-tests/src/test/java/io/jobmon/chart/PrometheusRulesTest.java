package io.jobmon.chart;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The alert rules of deploy/monitoring: valid for Prometheus (promtool check rules), behaving as their unit tests say
 * (promtool test rules), every alert tested both firing and not firing, labelled for routing, with a runbook.
 */
class PrometheusRulesTest {

    private static final Set<String> SEVERITIES = Set.of("critical", "warning", "info");
    private static final Set<String> COMPONENTS = Set.of("jobs", "gpu", "node", "jobmon");
    private static final Set<String> TEAMS = Set.of("platform", "infra", "jobmon");

    @Test
    void promtoolAcceptsEveryRuleFile() throws Exception {
        List<Path> files = RuleFiles.ruleFiles();
        assertEquals(4, files.size(), "rule files: " + files);
        for (Path file : files) {
            Tool.Run run = Tool.PROMTOOL.run(RuleFiles.RULES, "check", "rules", file.getFileName().toString());
            assertEquals(0, run.exitCode(), "promtool check rules " + file + ":\n" + run.output());
        }
    }

    @Test
    void everyRuleFileBehavesAsItsPromtoolTestsSay() throws Exception {
        List<Path> tests = RuleFiles.testFiles();
        assertEquals(RuleFiles.ruleFiles().size(), tests.size(), "a test file per rule file: " + tests);
        for (Path test : tests) {
            Tool.Run run = Tool.PROMTOOL.run(RuleFiles.TESTS, "test", "rules", test.getFileName().toString());
            assertEquals(0, run.exitCode(), "promtool test rules " + test + ":\n" + run.output());
            assertTrue(run.output().contains("SUCCESS"), run.output());
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyAlertIsTestedFiringAndNotFiring() {
        Map<String, Set<String>> cases = new TreeMap<>();
        for (Path test : RuleFiles.testFiles()) {
            for (Map<String, Object> t : (List<Map<String, Object>>) RuleFiles.load(test).get("tests")) {
                for (Map<String, Object> a : (List<Map<String, Object>>) t.getOrDefault("alert_rule_test", List.of())) {
                    List<?> expected = (List<?>) a.get("exp_alerts");
                    cases.computeIfAbsent((String) a.get("alertname"), k -> new TreeSet<>())
                            .add(expected == null || expected.isEmpty() ? "not firing" : "firing");
                }
            }
        }
        List<String> untested = new ArrayList<>();
        for (RuleFiles.Rule rule : RuleFiles.rules()) {
            if (rule.alert() != null && !cases.getOrDefault(rule.alert(), Set.of()).equals(Set.of("firing", "not firing"))) {
                untested.add(rule.alert() + " " + cases.getOrDefault(rule.alert(), Set.of()));
            }
        }
        assertEquals(List.of(), untested, "alerts without both a firing and a not-firing promtool case");
    }

    @Test
    void everyAlertCarriesSeverityComponentAndTeamAndSaysWhatToDo() {
        int alerts = 0;
        for (RuleFiles.Rule rule : RuleFiles.rules()) {
            if (rule.alert() == null) {
                continue;
            }
            alerts++;
            assertTrue(SEVERITIES.contains(rule.labels().get("severity")), rule.alert() + ": severity " + rule.labels());
            assertTrue(COMPONENTS.contains(rule.labels().get("component")), rule.alert() + ": component " + rule.labels());
            assertTrue(TEAMS.contains(rule.labels().get("team")), rule.alert() + ": team " + rule.labels());
            for (String annotation : List.of("summary", "description", "runbook")) {
                String text = rule.annotations().get(annotation);
                assertTrue(text != null && !text.isBlank(), rule.alert() + ": no " + annotation);
            }
            assertTrue(rule.annotations().get("runbook").contains("1."), rule.alert() + ": the runbook lists steps");
        }
        assertTrue(alerts >= 25, "alerts: " + alerts);
    }

    @Test
    void theRuleGroupsTheIssueAsksForAreThere() {
        Set<String> alerts = new TreeSet<>();
        RuleFiles.rules().forEach(r -> {
            if (r.alert() != null) {
                alerts.add(r.alert());
            }
        });
        for (String alert : List.of("JobQueueStalled", "JobFailureRateSpike", "JobSchedulingLatencyHigh", "JobGpusIdle",
                "GpuTemperatureHigh", "GpuXidError", "GpuEccDoubleBitErrors", "GpuThrottled", "GpuAllocatedIdle",
                "NodeDown", "NodeDiskSpaceLow", "NodeMemoryLow", "JobmonConsumerLagHigh", "JobmonDeadLetters",
                "JobmonK8sIngestStopped", "JobmonOutboxBacklog", "JobmonServiceDown", "JobmonHttp5xxRate")) {
            assertTrue(alerts.contains(alert), alert + " missing; alerts: " + alerts);
        }
    }
}
