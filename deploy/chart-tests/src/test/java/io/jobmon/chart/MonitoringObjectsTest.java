package io.jobmon.chart;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Secret;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The chart ships deploy/monitoring as it is tested: PrometheusRules, dashboard ConfigMaps, the Alertmanager Secret. */
class MonitoringObjectsTest {

    @Test
    void everyRuleFileIsAPrometheusRuleWithTheSameGroups() throws Exception {
        List<GenericKubernetesResource> rules = Rendered.defaults().custom("PrometheusRule");
        assertEquals(RuleFiles.ruleFiles().size(), rules.size());
        for (Path file : RuleFiles.ruleFiles()) {
            String name = "jobmon-" + file.getFileName().toString().replace(".rules.yml", "");
            GenericKubernetesResource rule = rules.stream().filter(r -> r.getMetadata().getName().equals(name))
                    .findFirst().orElseThrow(() -> new AssertionError("no PrometheusRule " + name));
            Object groups = rule.get("spec", "groups");
            assertEquals(RuleFiles.load(file).get("groups"), groups, name + " differs from " + file);
        }
        assertEquals(Map.of("release", "kube-prometheus-stack"), Rendered.onPrem().custom("PrometheusRule").get(0)
                .getMetadata().getLabels().entrySet().stream().filter(e -> e.getKey().equals("release"))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)));
    }

    @Test
    void everyDashboardIsAConfigMapTheGrafanaSidecarPicksUp() throws Exception {
        List<ConfigMap> maps = Rendered.defaults().all(ConfigMap.class).stream()
                .filter(c -> "1".equals(c.getMetadata().getLabels().get("grafana_dashboard"))).toList();
        List<Path> files = MetricsCatalogueTest.dashboards();
        assertEquals(files.size(), maps.size());
        for (Path file : files) {
            String key = file.getFileName().toString();
            ConfigMap map = maps.stream().filter(c -> c.getData().containsKey(key)).findFirst()
                    .orElseThrow(() -> new AssertionError("no ConfigMap for " + key));
            assertEquals(Files.readString(file).strip(), map.getData().get(key).strip(), key);
            assertEquals("jobmon", map.getMetadata().getAnnotations().get("grafana_folder"));
        }
    }

    @Test
    void onPremTheAlertmanagerSecretPointsAtThePlatformsWebhooksAndPassesAmtool() throws Exception {
        Secret secret = Rendered.onPrem().named(Secret.class, "alertmanager-platform");
        String config = secret.getStringData().get("alertmanager.yaml");
        assertTrue(config.contains("http://dingtalk-bridge.monitoring.svc:8060/dingtalk/infra-critical/send"), config);
        assertTrue(config.contains("http://notify.platform.svc:8080/alerts"), config);
        assertTrue(!config.contains("alert-bridge.monitoring.svc"), "default bridge URL left in");
        Path dir = Files.createTempDirectory("alertmanager");
        Files.writeString(dir.resolve("alertmanager.yml"), config);
        Tool.Run run = Tool.AMTOOL.run(dir, "check-config", "alertmanager.yml");
        assertEquals(0, run.exitCode(), run.output());
        assertEquals(List.of(), Rendered.defaults().all(Secret.class), "the default values render no Secret");
    }

    @Test
    void theChartRendersNoSecretValueOfItsOwn() {
        for (Rendered r : Rendered.both()) {
            for (Secret s : r.all(Secret.class)) {
                Set<String> keys = s.getStringData() == null ? Set.of() : s.getStringData().keySet();
                assertEquals(Set.of("alertmanager.yaml"), keys, r + ": Secret " + s.getMetadata().getName());
                assertTrue(s.getData() == null || s.getData().isEmpty(), r + ": " + s.getMetadata().getName());
            }
        }
    }

}
