package io.jobmon.sim;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A batch/v1 Job in the shape job-service's {@code WorkloadFactory.build} gives it (job-service is a Quarkus app
 * and not a dependency of this module): named by the job id, the spec's labels plus jobmon.io/job-id, owner and
 * project on the Job and its pod template, Indexed when replicated, backoffLimit 0, restartPolicy Never,
 * GPUs as requests = limits of the one container {@code main}.
 */
public final class JobServiceWorkload {

    private JobServiceWorkload() {
    }

    public static Job build(String jobId, String namespace, int replicas, int gpusPerReplica,
            Map<String, String> specLabels) {
        Map<String, String> labels = new LinkedHashMap<>(specLabels);
        labels.put("jobmon.io/job-id", jobId);
        labels.put("jobmon.io/owner", "alice");
        labels.put("jobmon.io/project", "project-nlp");
        Map<String, Quantity> resources = new LinkedHashMap<>();
        resources.put("cpu", new Quantity("16"));
        resources.put("memory", new Quantity("128Gi"));
        if (gpusPerReplica > 0) {
            resources.put("nvidia.com/gpu", new Quantity(String.valueOf(gpusPerReplica)));
        }
        return new JobBuilder()
                .withNewMetadata().withName(jobId).withNamespace(namespace).withLabels(labels)
                .addToAnnotations("jobmon.io/name", "llama-sft").endMetadata()
                .withNewSpec()
                .withCompletions(replicas).withParallelism(replicas)
                .withCompletionMode(replicas > 1 ? "Indexed" : "NonIndexed")
                .withBackoffLimit(0)
                .withNewTemplate()
                .withNewMetadata().withLabels(labels).endMetadata()
                .withNewSpec()
                .withRestartPolicy("Never")
                .withPriorityClassName("jobmon-normal")
                .addNewContainer().withName("main").withImage("registry.local/llm/trainer:24.05")
                .withEnv(List.of(new EnvVar("JOBMON_JOB_ID", jobId, null)))
                .withCommand("torchrun", "train.py")
                .withNewResources().withRequests(resources).withLimits(resources).endResources()
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
    }
}
