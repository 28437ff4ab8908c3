package io.jobmon.sim.control;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.jobmon.sim.scenario.Scenarios;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@link Admission} of a new pod against the API's current state: the PriorityClasses, the namespace's unscoped
 * ResourceQuotas with what its pods that have not ended use (as the quota controller counts it), and for a pod of the
 * {@code quota} scenario its project's GPU quota, full.
 */
final class PodAdmission {

    private final Kube kube;

    PodAdmission(Kube kube) {
        this.kube = kube;
    }

    /** The API server's error for the pod, or empty when it is admitted. */
    Optional<String> admit(Pod pod) {
        String ns = pod.getMetadata().getNamespace();
        Map<String, Long> used = usedIn(ns);
        List<Admission.Quota> quotas = new ArrayList<>();
        for (ResourceQuota q : kube.quotasIn(ns)) {
            if (q.getSpec() == null || q.getSpec().getHard() == null
                    || (q.getSpec().getScopes() != null && !q.getSpec().getScopes().isEmpty())) {
                continue;
            }
            Map<String, Long> hard = new HashMap<>();
            q.getSpec().getHard().forEach((r, v) -> hard.put(r, canonical(r, v)));
            quotas.add(new Admission.Quota(q.getMetadata().getName(), hard, used));
        }
        if (Scenarios.QUOTA.equals(Scenarios.nameOf(pod))) {
            String project = pod.getMetadata().getLabels().getOrDefault("jobmon.io/project", ns);
            long gpus = used.getOrDefault("requests.nvidia.com/gpu", 0L);
            quotas.add(new Admission.Quota(project + "-gpu", Map.of("requests.nvidia.com/gpu", gpus),
                    Map.of("requests.nvidia.com/gpu", gpus)));
        }
        return Admission.deny(pod.getMetadata().getName(), pod.getSpec().getPriorityClassName(),
                kube.priorityClasses(), PodResources.usage(pod), quotas);
    }

    private Map<String, Long> usedIn(String ns) {
        Map<String, Long> used = new HashMap<>();
        for (Pod p : kube.pods()) {
            if (ns.equals(p.getMetadata().getNamespace()) && !PodPhases.terminal(p)) {
                PodResources.usage(p).byResource().forEach((r, v) -> used.merge(r, v, Long::sum));
            }
        }
        return used;
    }

    /** A quota quantity in canonical units: millicores for CPU, bytes or counts otherwise. */
    private static long canonical(String resource, Quantity q) {
        BigDecimal v = Quantity.getAmountInBytes(q);
        return resource.endsWith("cpu") ? v.multiply(BigDecimal.valueOf(1000)).longValue() : v.longValue();
    }
}
