package io.jobmon.chart;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** deploy/monitoring/alertmanager/alertmanager.yml: valid for amtool, routed by severity and team, inhibiting by node. */
class AlertmanagerConfigTest {

    static final Path DIR = Repo.MONITORING.resolve("alertmanager");
    static final String FILE = "alertmanager.yml";

    @Test
    void amtoolAcceptsTheConfiguration() throws Exception {
        Tool.Run run = Tool.AMTOOL.run(DIR, "check-config", FILE);
        assertEquals(0, run.exitCode(), "amtool check-config:\n" + run.output());
    }

    @Test
    void alertsGoToTheTeamsRobotBySeverityAndCriticalOnesAlsoPage() throws Exception {
        Map<String, String> routes = Map.of(
                "severity=critical team=infra alertname=GpuXidError", "pager-webhook,dingtalk-infra-critical",
                "severity=warning team=infra alertname=NodeDiskSpaceLow", "dingtalk-infra-warning",
                "severity=critical team=platform alertname=JobFailureRateSpike", "pager-webhook,dingtalk-platform-critical",
                "severity=warning team=platform alertname=JobQueueStalled", "dingtalk-platform-warning",
                "severity=critical team=jobmon alertname=JobmonServiceDown", "pager-webhook,dingtalk-platform-critical",
                "severity=warning team=jobmon alertname=JobmonDeadLetters", "dingtalk-platform-warning",
                "severity=info team=platform alertname=JobFinished", "generic-webhook",
                "severity=warning alertname=SomethingElse", "generic-webhook");
        for (var e : routes.entrySet()) {
            String[] labels = e.getKey().split(" ");
            String[] args = new String[3 + labels.length];
            args[0] = "config";
            args[1] = "routes";
            args[2] = "test";
            System.arraycopy(labels, 0, args, 3, labels.length);
            args = append(args, "--config.file=" + FILE);
            Tool.Run run = Tool.AMTOOL.run(DIR, args);
            assertEquals(0, run.exitCode(), run.output());
            String receivers = run.output().lines().filter(l -> !l.startsWith("Warning")).findFirst().orElse("").strip();
            assertEquals(e.getValue(), receivers, e.getKey());
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void aNodeThatIsDownSilencesItsGpuNodeAndJobAlertsAndNotificationsAreGroupedByClusterAndAlert() {
        Map<String, Object> config = RuleFiles.load(DIR.resolve(FILE));
        Map<String, Object> route = (Map<String, Object>) config.get("route");
        assertEquals(List.of("cluster", "alertname"), route.get("group_by"));
        List<Map<String, Object>> inhibitions = (List<Map<String, Object>>) config.get("inhibit_rules");
        Map<String, Object> nodeDown = inhibitions.stream()
                .filter(i -> ((List<String>) i.get("source_matchers")).contains("alertname=\"NodeDown\"")).findFirst()
                .orElseThrow(() -> new AssertionError("no inhibition by NodeDown"));
        assertEquals(List.of("cluster", "node"), nodeDown.get("equal"));
        assertTrue(((List<String>) nodeDown.get("target_matchers")).contains("component=~\"gpu|node|jobs\""));
        // The alerts it must silence carry the node label: GPU alerts copy it from dcgm-exporter's Hostname.
        for (RuleFiles.Rule rule : RuleFiles.rules()) {
            if (rule.alert() != null && List.of("gpu", "node").contains(rule.labels().get("component"))) {
                assertTrue(rule.expr().contains("\"node\"") || rule.expr().contains("(cluster, node)"),
                        rule.alert() + " has no node label for the inhibition");
            }
        }
    }

    @Test
    void theFileHoldsNoRobotTokenOrPassword() throws Exception {
        String text = java.nio.file.Files.readString(DIR.resolve(FILE));
        for (String forbidden : List.of("access_token=", "password:", "oapi.dingtalk.com", "qyapi.weixin.qq.com")) {
            assertTrue(!text.contains(forbidden), forbidden + " in " + FILE);
        }
    }

    private static String[] append(String[] a, String s) {
        String[] b = java.util.Arrays.copyOf(a, a.length + 1);
        b[a.length] = s;
        return b;
    }
}
