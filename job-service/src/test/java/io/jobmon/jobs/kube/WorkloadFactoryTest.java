package io.jobmon.jobs.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.fabric8.kubernetes.api.model.PodSpec;
import io.jobmon.contracts.access.Visibility;
import io.jobmon.jobs.job.model.AttemptCause;
import io.jobmon.jobs.job.model.JobRecord;
import io.jobmon.jobs.job.model.JobSpec;
import io.jobmon.jobs.job.model.Priority;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkloadFactoryTest {

    @Test
    void labelValuesAreMadeValid() {
        assertEquals("alice", WorkloadFactory.labelValue("alice"));
        assertEquals("alice_example.com", WorkloadFactory.labelValue("alice@example.com"));
        assertEquals("x", WorkloadFactory.labelValue("--x--"));
        assertEquals(63, WorkloadFactory.labelValue("a".repeat(80)).length());
    }

    static JobRecord job(String gpuType, int gpus) {
        JobSpec spec = new JobSpec("bert", "project-nlp", "sim", null, "default", null, "reg/nlp/bert:1", List.of(),
                List.of(), Map.of(), null, 2, new JobSpec.Resources(gpuType, gpus, null, null), List.of(), List.of(),
                null, false, false, 0, Map.of());
        Instant t = Instant.parse("2026-07-06T09:30:00Z");
        return new JobRecord("j-1", "t1", "alice", "project-nlp", "bert", "sim", "default", "jobmon-jobs", "default",
                Priority.NORMAL, io.jobmon.contracts.events.JobStatus.QUEUED, null, null, null, null, null, null, gpuType,
                gpus, 2, Visibility.PRIVATE, List.of(), List.of(), spec, false, false, 0, "j-1", 1, AttemptCause.INITIAL,
                null, null, null, 0, null, t, null, null, null, 0, 1, t);
    }

    static PodSpec pods(JobRecord job, Map<String, String> products) {
        return WorkloadFactory.build(job, "jobmon-jobs", "jobmon-normal", products).getSpec().getTemplate().getSpec();
    }

    @Test
    void aJobAskingForAModelTheClusterLabelsGoesToNodesOfThatModelOnly() {
        Map<String, String> products = Map.of("A800", "NVIDIA-A800-SXM4-80GB", "H100", "NVIDIA-H100-80GB-HBM3");
        assertEquals(Map.of("nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3"), pods(job("H100", 8), products).getNodeSelector());
        assertEquals(Map.of("nvidia.com/gpu.product", "NVIDIA-A800-SXM4-80GB"), pods(job("a800", 1), products).getNodeSelector());
        // a model the cluster does not label, a cluster that labels none, a job without GPUs: any node with room
        assertNull(pods(job("A100", 8), products).getNodeSelector());
        assertNull(pods(job("H100", 8), Map.of()).getNodeSelector());
        assertNull(pods(job("H100", 0), products).getNodeSelector());
    }
}
