package io.jobmon.sim.kubelet;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.jobmon.sim.cluster.Fleet;
import io.jobmon.sim.cluster.SimNode;
import io.jobmon.sim.control.JobPods;
import io.jobmon.sim.control.Kube;
import io.jobmon.sim.logs.ContainerRef;
import io.jobmon.sim.scenario.Run;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** What a pod's scenario and its log lines are told of it: its run (index, GPUs, memory limit), its container. */
final class PodFacts {

    private PodFacts() {
    }

    static Run run(Kubelet k, Pod pod, Container main, SimNode node, PodState st, Instant start) {
        String key = Kube.key(pod);
        String name = pod.getMetadata().getName();
        String index = pod.getMetadata().getLabels() == null ? null
                : pod.getMetadata().getLabels().get(JobPods.COMPLETION_INDEX);
        int replicas = k.replicasOf(pod);
        Quantity mem = main.getResources() == null || main.getResources().getLimits() == null ? null
                : main.getResources().getLimits().get("memory");
        long limit = mem == null ? 256L << 30 : Quantity.getAmountInBytes(mem).longValue();
        return new Run(pod.getMetadata().getNamespace(), name, main.getName(), main.getImage(), node.name(),
                node.spec().model(), k.fleet().allocation(key).map(Fleet.Allocation::gpus).orElse(List.of()),
                index == null ? 0 : Integer.parseInt(index), replicas, st.restarts, k.runTime(), start, k.scale(),
                pod.getMetadata().getUid().hashCode() + 31L * st.restarts, limit,
                Run.memcg(pod.getMetadata().getUid(), pod.getStatus() == null ? null : pod.getStatus().getQosClass(),
                        st.containerId));
    }

    static ContainerRef logRef(Pod pod, Container main, SimNode node, PodState st) {
        String name = pod.getMetadata().getName();
        Map<String, String> labels = pod.getMetadata().getLabels() == null ? Map.of() : pod.getMetadata().getLabels();
        Map<String, String> annotations = pod.getMetadata().getAnnotations() == null ? Map.of()
                : pod.getMetadata().getAnnotations();
        return new ContainerRef(pod.getMetadata().getNamespace(), name, pod.getMetadata().getUid(), labels, annotations,
                node.name(), st.podIp, main.getName(), st.containerId, st.imageId, main.getImage());
    }
}
