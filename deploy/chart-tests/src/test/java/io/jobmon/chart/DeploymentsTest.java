package io.jobmon.chart;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What every Deployment of the chart must have, with the default and the on-prem values. */
class DeploymentsTest {

    static List<Rendered> values() {
        return Rendered.both();
    }

    @ParameterizedTest
    @MethodSource("values")
    void everyServiceIsProbedOnItsManagementPort(Rendered r) {
        for (Deployment d : r.all(Deployment.class)) {
            Container c = theContainer(d);
            assertProbe(r, d, c, "startup", c.getStartupProbe(), "/q/health/started");
            assertProbe(r, d, c, "liveness", c.getLivenessProbe(), "/q/health/live");
            assertProbe(r, d, c, "readiness", c.getReadinessProbe(), "/q/health/ready");
            assertEquals(8080, port(c, "http"), r + " " + name(d) + ": HTTP on 8080");
        }
        assertEquals(Repo.SERVICES.size(), r.all(Deployment.class).size(), r + ": one Deployment per service");
    }

    @ParameterizedTest
    @MethodSource("values")
    void everyContainerHasRequestsAndLimits(Rendered r) {
        for (Deployment d : r.all(Deployment.class)) {
            var resources = theContainer(d).getResources();
            for (String kind : List.of("cpu", "memory")) {
                assertNotNull(resources.getRequests().get(kind), r + " " + name(d) + ": request " + kind);
                assertNotNull(resources.getLimits().get(kind), r + " " + name(d) + ": limit " + kind);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("values")
    void everyPodRunsAsNonRootOnAReadOnlyRootWithAWritableTmp(Rendered r) {
        for (Deployment d : r.all(Deployment.class)) {
            PodSpec pod = d.getSpec().getTemplate().getSpec();
            Container c = theContainer(d);
            assertEquals(Boolean.TRUE, pod.getSecurityContext().getRunAsNonRoot(), r + " " + name(d));
            assertTrue(pod.getSecurityContext().getRunAsUser() > 0, r + " " + name(d) + ": a non-zero uid");
            assertEquals(Boolean.TRUE, c.getSecurityContext().getReadOnlyRootFilesystem(), r + " " + name(d));
            assertEquals(Boolean.FALSE, c.getSecurityContext().getAllowPrivilegeEscalation(), r + " " + name(d));
            assertEquals(List.of("ALL"), c.getSecurityContext().getCapabilities().getDrop(), r + " " + name(d));
            String tmpVolume = c.getVolumeMounts().stream().filter(m -> m.getMountPath().equals("/tmp"))
                    .findFirst().orElseThrow(() -> new AssertionError(r + " " + name(d) + ": no /tmp mount")).getName();
            assertTrue(pod.getVolumes().stream().anyMatch(v -> v.getName().equals(tmpVolume) && v.getEmptyDir() != null),
                    r + " " + name(d) + ": /tmp is an emptyDir");
        }
    }

    @ParameterizedTest
    @MethodSource("values")
    void everyServiceHasAServiceAPodDisruptionBudgetAndAServiceMonitorOnItsMetrics(Rendered r) {
        for (Deployment d : r.all(Deployment.class)) {
            Map<String, String> selector = d.getSpec().getSelector().getMatchLabels();
            Service s = r.named(Service.class, name(d));
            assertEquals(selector, s.getSpec().getSelector(), r + " " + name(d));
            assertTrue(s.getSpec().getPorts().stream().anyMatch(p -> p.getPort() == 9000 && "management".equals(p.getName())),
                    r + " " + name(d) + ": the management port on the Service");
            PodDisruptionBudget pdb = r.named(PodDisruptionBudget.class, name(d));
            assertEquals(selector, pdb.getSpec().getSelector().getMatchLabels(), r + " " + name(d));
            GenericKubernetesResource monitor = r.custom("ServiceMonitor").stream()
                    .filter(m -> m.getMetadata().getName().equals(name(d))).findFirst()
                    .orElseThrow(() -> new AssertionError(r + " " + name(d) + ": no ServiceMonitor"));
            Map<String, Object> endpoint = monitor.<List<Map<String, Object>>>get("spec", "endpoints").get(0);
            assertEquals("management", endpoint.get("port"), r + " " + name(d));
            assertEquals("/q/metrics", endpoint.get("path"), r + " " + name(d));
        }
    }

    @ParameterizedTest
    @MethodSource("values")
    void anAutoscaledServiceLeavesItsReplicasToTheAutoscaler(Rendered r) {
        for (HorizontalPodAutoscaler hpa : r.all(HorizontalPodAutoscaler.class)) {
            Deployment d = r.named(Deployment.class, hpa.getSpec().getScaleTargetRef().getName());
            assertNull(d.getSpec().getReplicas(), r + " " + name(d) + ": replicas would fight the HPA");
            assertTrue(hpa.getSpec().getMinReplicas() >= 1 && hpa.getSpec().getMaxReplicas() >= hpa.getSpec().getMinReplicas());
        }
    }

    @ParameterizedTest
    @MethodSource("values")
    void changingAServicesSettingsRollsItsPods(Rendered r) {
        for (Deployment d : r.all(Deployment.class)) {
            assertNotNull(d.getSpec().getTemplate().getMetadata().getAnnotations().get("checksum/env"), r + " " + name(d));
        }
    }

    @org.junit.jupiter.api.Test
    void onPremEveryServiceRunsAtLeastTwoReplicasAndServesTheApiOverTls() {
        Rendered r = Rendered.onPrem();
        for (Deployment d : r.all(Deployment.class)) {
            Optional<HorizontalPodAutoscaler> hpa = r.all(HorizontalPodAutoscaler.class).stream()
                    .filter(h -> h.getSpec().getScaleTargetRef().getName().equals(name(d))).findFirst();
            int floor = hpa.map(h -> h.getSpec().getMinReplicas()).orElseGet(() -> d.getSpec().getReplicas());
            assertTrue(floor >= 2, name(d) + " runs " + floor + " replica(s)");
        }
        var ingress = r.named(io.fabric8.kubernetes.api.model.networking.v1.Ingress.class, "jobmon-gateway");
        assertEquals("jobmon-tls", ingress.getSpec().getTls().get(0).getSecretName());
        assertEquals("jobmon-gateway", ingress.getSpec().getRules().get(0).getHttp().getPaths().get(0).getBackend()
                .getService().getName(), "only the gateway is behind the Ingress");
    }

    static Container theContainer(Deployment d) {
        List<Container> containers = d.getSpec().getTemplate().getSpec().getContainers();
        assertEquals(1, containers.size(), name(d));
        return containers.get(0);
    }

    static String name(Deployment d) {
        return d.getMetadata().getName();
    }

    private static int port(Container c, String name) {
        return c.getPorts().stream().filter(p -> name.equals(p.getName())).map(ContainerPort::getContainerPort)
                .findFirst().orElseThrow(() -> new AssertionError(c.getName() + ": no port " + name));
    }

    private static void assertProbe(Rendered r, Deployment d, Container c, String kind, Probe probe, String path) {
        assertNotNull(probe, r + " " + name(d) + ": no " + kind + " probe");
        assertEquals(path, probe.getHttpGet().getPath(), r + " " + name(d) + " " + kind);
        IntOrString port = probe.getHttpGet().getPort();
        int number = port.getIntVal() != null ? port.getIntVal() : port(c, port.getStrVal());
        assertEquals(9000, number, r + " " + name(d) + " " + kind + ": on the management port");
    }
}
