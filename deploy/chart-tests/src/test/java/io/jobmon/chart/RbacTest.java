package io.jobmon.chart;

import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** job-service creates and deletes batch Jobs, event-ingest-service only reads, each only in the job namespaces. */
class RbacTest {

    private static final String JOBS = "jobmon-job-service";
    private static final String INGEST = "jobmon-event-ingest-service";
    private static final String METRICS = "jobmon-metrics-service";

    @Test
    void jobServiceMayCreateAndDeleteBatchJobsInTheJobNamespaceAndReadNodesAndNothingElse() {
        Rendered r = Rendered.defaults();
        Role role = role(r, JOBS, "jobmon-jobs");
        assertEquals(Set.of("batch/jobs:create", "batch/jobs:delete", "batch/jobs:get", "batch/jobs:list",
                "batch/jobs:watch"), grants(role.getRules()));
        assertBoundTo(r, role, JOBS);
        ClusterRole nodes = clusterRole(r, JOBS);
        assertEquals(Set.of("/nodes:get", "/nodes:list"), grants(nodes.getRules()),
                "the nodes' GPUs: a job asking for more than the cluster has is refused at submission");
        assertTrue(r.all(ClusterRoleBinding.class).stream().anyMatch(b -> b.getRoleRef().getName()
                .equals(nodes.getMetadata().getName()) && JOBS.equals(b.getSubjects().get(0).getName())));
    }

    private static ClusterRole clusterRole(Rendered r, String service) {
        return r.all(ClusterRole.class).stream().filter(c -> c.getMetadata().getName().startsWith(service + "-"))
                .findFirst().orElseThrow(() -> new AssertionError("no ClusterRole of " + service));
    }

    @Test
    void eventIngestMayReadPodsEventsJobsAndNodesAndWriteNothing() {
        Rendered r = Rendered.defaults();
        Role role = role(r, INGEST, "jobmon-jobs");
        assertEquals(Set.of("/pods:get", "/pods:list", "/pods:watch", "/events:get", "/events:list", "/events:watch",
                "batch/jobs:get", "batch/jobs:list", "batch/jobs:watch"), grants(role.getRules()));
        assertBoundTo(r, role, INGEST);
        ClusterRole nodes = clusterRole(r, INGEST);
        assertEquals(Set.of("/nodes:get", "/nodes:list", "/nodes:watch", "/events:list", "/events:watch"),
                grants(nodes.getRules()), "nodes, and the events about them in any namespace (NodeEventWatcher)");
        ClusterRoleBinding binding = r.all(ClusterRoleBinding.class).stream()
                .filter(b -> b.getRoleRef().getName().equals(nodes.getMetadata().getName())).findFirst().orElseThrow();
        assertEquals(nodes.getMetadata().getName(), binding.getRoleRef().getName());
        assertEquals(INGEST, binding.getSubjects().get(0).getName());
        assertEquals(Rendered.NAMESPACE, binding.getSubjects().get(0).getNamespace());
    }

    @Test
    void metricsServiceMayListNodesAndReadTheirKubeletsCadvisorAndNothingElse() {
        Rendered r = Rendered.defaults();
        ClusterRole nodes = clusterRole(r, METRICS);
        assertEquals(Set.of("/nodes:get", "/nodes:list", "/nodes:watch", "/nodes/metrics:get", "/nodes/proxy:get"),
                grants(nodes.getRules()), "the kubelets' /metrics/cadvisor through the API server or their port");
        ClusterRoleBinding binding = r.all(ClusterRoleBinding.class).stream()
                .filter(b -> b.getRoleRef().getName().equals(nodes.getMetadata().getName())).findFirst().orElseThrow();
        assertEquals(1, binding.getSubjects().size());
        assertEquals(METRICS, binding.getSubjects().get(0).getName());
        assertEquals(Rendered.NAMESPACE, binding.getSubjects().get(0).getNamespace());
        assertTrue(r.all(Role.class).stream().noneMatch(x -> x.getMetadata().getName().equals(METRICS)),
                "nothing in the job namespaces");
    }

    @Test
    void rolesAreMadeOnlyInTheJobNamespacesOfTheClusterJobmonRunsIn() {
        Rendered r = Rendered.onPrem();
        // gpu-a (this cluster) uses ai-train; gpu-b is remote (kubeconfig): its RBAC lives there, not here.
        assertEquals(Set.of("ai-train"), r.all(Role.class).stream().map(x -> x.getMetadata().getNamespace())
                .collect(Collectors.toSet()));
        assertEquals(2, r.all(Role.class).size());
        String clusters = r.configMap("jobmon-clusters").getData().get("clusters.properties");
        assertTrue(clusters.contains("jobmon.clusters.gpu-b.kubeconfig=/etc/jobmon/kubeconfig/gpu-b/config"), clusters);
        assertTrue(clusters.contains("jobmon.clusters.gpu-a.namespace=ai-train"), clusters);
        assertTrue(clusters.contains("jobmon.clusters.gpu-a.gpu-products.A800=NVIDIA-A800-SXM4-80GB"), clusters);
    }

    @Test
    void onlyTheServicesThatTalkToKubernetesGetAnApiToken() {
        for (Rendered r : Rendered.both()) {
            for (Deployment d : r.all(Deployment.class)) {
                boolean talks = List.of(JOBS, INGEST, METRICS).contains(d.getMetadata().getName());
                assertEquals(talks, d.getSpec().getTemplate().getSpec().getAutomountServiceAccountToken(),
                        r + " " + d.getMetadata().getName());
                assertEquals(d.getMetadata().getName(), d.getSpec().getTemplate().getSpec().getServiceAccountName());
                r.named(ServiceAccount.class, d.getMetadata().getName());
            }
        }
    }

    private static Role role(Rendered r, String name, String namespace) {
        return r.all(Role.class).stream()
                .filter(x -> x.getMetadata().getName().equals(name) && namespace.equals(x.getMetadata().getNamespace()))
                .findFirst().orElseThrow(() -> new AssertionError("no Role " + name + " in " + namespace));
    }

    private static void assertBoundTo(Rendered r, Role role, String serviceAccount) {
        RoleBinding binding = r.all(RoleBinding.class).stream()
                .filter(b -> b.getRoleRef().getName().equals(role.getMetadata().getName())
                        && b.getMetadata().getNamespace().equals(role.getMetadata().getNamespace()))
                .findFirst().orElseThrow();
        assertEquals(1, binding.getSubjects().size());
        assertEquals(serviceAccount, binding.getSubjects().get(0).getName());
        assertEquals(Rendered.NAMESPACE, binding.getSubjects().get(0).getNamespace());
    }

    /** Rules flattened to "group/resource:verb". */
    private static Set<String> grants(List<PolicyRule> rules) {
        Set<String> grants = new TreeSet<>();
        for (PolicyRule rule : rules) {
            for (String group : rule.getApiGroups()) {
                for (String resource : rule.getResources()) {
                    for (String verb : rule.getVerbs()) {
                        grants.add(group + "/" + resource + ":" + verb);
                    }
                }
            }
        }
        return grants;
    }
}
