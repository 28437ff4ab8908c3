package io.jobmon.chart;

import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.jobmon.chart.NetworkPolicyModel.Endpoint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The NetworkPolicies allow exactly the flows of architecture.md between services, and little from outside. */
class NetworkPolicyFlowsTest {

    /**
     * architecture.md's HTTP flows: the gateway routes /api to the five services (8080) and reads their readiness
     * and OpenAPI documents on the management port (9000); diagnosis-service reads evidence from the job,
     * event-ingest, log and metrics services. Everything else between services is Kafka.
     */
    private static final Set<String> EXPECTED = Set.of(
            "gateway -> job-service:8080", "gateway -> job-service:9000",
            "gateway -> event-ingest-service:8080", "gateway -> event-ingest-service:9000",
            "gateway -> metrics-service:8080", "gateway -> metrics-service:9000",
            "gateway -> log-service:8080", "gateway -> log-service:9000",
            "gateway -> diagnosis-service:8080", "gateway -> diagnosis-service:9000",
            "diagnosis-service -> job-service:8080", "diagnosis-service -> event-ingest-service:8080",
            "diagnosis-service -> log-service:8080", "diagnosis-service -> metrics-service:8080");

    private static final List<Integer> PORTS = List.of(8080, 9000);

    static List<Rendered> values() {
        return Rendered.both();
    }

    @ParameterizedTest
    @MethodSource("values")
    void servicesReachEachOtherExactlyWhereTheArchitectureHasAFlow(Rendered r) {
        NetworkPolicyModel model = model(r);
        Set<String> allowed = new TreeSet<>();
        for (String from : Repo.SERVICES) {
            for (String to : Repo.SERVICES) {
                for (int port : PORTS) {
                    if (!from.equals(to) && model.allows(pod(from), pod(to), port)) {
                        allowed.add(from + " -> " + to + ":" + port);
                    }
                }
            }
        }
        assertEquals(new TreeSet<>(EXPECTED), allowed, r.label);
    }

    @Test
    void fromOutsideOnlyTheGatewayIsReachable() {
        NetworkPolicyModel model = model(Rendered.defaults());
        Endpoint stranger = Endpoint.pod("tenant-a", Map.of("app", "notebook"));
        for (String service : Repo.SERVICES) {
            for (int port : PORTS) {
                boolean expected = service.equals("gateway") && port == 8080;
                assertEquals(expected, model.allows(stranger, pod(service), port), service + ":" + port);
            }
        }
    }

    @Test
    void onPremOnlyTheIngressControllerReachesTheGateway() {
        NetworkPolicyModel model = model(Rendered.onPrem());
        Endpoint ingress = Endpoint.pod("ingress-nginx", Map.of("app.kubernetes.io/name", "ingress-nginx"));
        Endpoint stranger = Endpoint.pod("tenant-a", Map.of("app", "notebook"));
        assertTrue(model.allows(ingress, pod("gateway"), 8080));
        assertFalse(model.allows(stranger, pod("gateway"), 8080));
        for (String service : Repo.SERVICES) {
            if (!service.equals("gateway")) {
                assertFalse(model.allows(ingress, pod(service), 8080), service);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("values")
    void prometheusScrapesEveryManagementPortAndNothingElse(Rendered r) {
        NetworkPolicyModel model = model(r);
        Endpoint prometheus = Endpoint.pod("monitoring", Map.of("app.kubernetes.io/name", "prometheus"));
        for (String service : Repo.SERVICES) {
            assertTrue(model.allows(prometheus, pod(service), 9000), r + " " + service);
            if (!service.equals("gateway")) {
                assertFalse(model.allows(prometheus, pod(service), 8080), r + " " + service);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("values")
    void onlyMetricsServiceReachesTheExportersAndKubeletsAndOnlyItAndTheWatchersTheKubernetesApi(Rendered r) {
        NetworkPolicyModel model = model(r);
        Endpoint gpuNode = Endpoint.host("10.0.3.17");
        Endpoint apiServer = Endpoint.host("10.0.0.1");
        for (String service : Repo.SERVICES) {
            boolean scrapes = service.equals("metrics-service");
            assertEquals(scrapes, model.allows(pod(service), gpuNode, 9400), r + " " + service + " -> dcgm-exporter");
            assertEquals(scrapes, model.allows(pod(service), gpuNode, 9100), r + " " + service + " -> node_exporter");
            assertEquals(scrapes, model.allows(pod(service), gpuNode, 10250), r + " " + service + " -> kubelet");
            boolean watches = service.equals("job-service") || service.equals("event-ingest-service") || scrapes;
            assertEquals(watches, model.allows(pod(service), apiServer, 6443), r + " " + service + " -> API server");
        }
    }

    @ParameterizedTest
    @MethodSource("values")
    void everyServiceReachesTheDnsAndTheGatewayNoDatabase(Rendered r) {
        NetworkPolicyModel model = model(r);
        Endpoint dns = Endpoint.pod("kube-system", Map.of("k8s-app", "kube-dns"));
        Endpoint database = r == Rendered.defaults()
                ? Endpoint.pod(Rendered.NAMESPACE, Map.of("cnpg.io/cluster", "jobmon-pg"))
                : Endpoint.pod("infra", Map.of("app", "postgresql"));
        for (String service : Repo.SERVICES) {
            assertTrue(model.allows(pod(service), dns, 53), r + " " + service);
            assertEquals(!service.equals("gateway"), model.allows(pod(service), database, 5432), r + " " + service);
        }
    }

    private static NetworkPolicyModel model(Rendered r) {
        List<NetworkPolicy> policies = r.all(NetworkPolicy.class);
        assertEquals(Repo.SERVICES.size(), policies.size(), r + ": one NetworkPolicy per service");
        return new NetworkPolicyModel(policies);
    }

    private static Endpoint pod(String service) {
        return Endpoint.pod(Rendered.NAMESPACE, Map.of("app.kubernetes.io/name", "jobmon",
                "app.kubernetes.io/instance", Rendered.RELEASE, "app.kubernetes.io/component", service));
    }
}
