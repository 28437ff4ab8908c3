package io.jobmon.jobs.kube;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.jobmon.jobs.job.model.JobRecord;
import io.jobmon.jobs.job.model.JobSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Kubernetes workload of a job: a {@code batch/v1} Job named by the job id, Indexed when it has more than one
 * replica (each pod gets {@code JOB_COMPLETION_INDEX}), never retried by Kubernetes itself (retries are jobmon's
 * attempts), labelled so that the watcher in event-ingest can map every pod back to its job, and placed on nodes of
 * the GPU model asked when the cluster names that model's {@code nvidia.com/gpu.product} label.
 */
public final class WorkloadFactory {

    public static final String LABEL_JOB_ID = "jobmon.io/job-id";
    public static final String LABEL_OWNER = "jobmon.io/owner";
    public static final String LABEL_PROJECT = "jobmon.io/project";
    public static final String GPU_RESOURCE = "nvidia.com/gpu";
    /** The node label GPU feature discovery writes with the GPU's product name. */
    public static final String GPU_PRODUCT_LABEL = "nvidia.com/gpu.product";

    private WorkloadFactory() {
    }

    public static Job build(JobRecord job, String namespace, String priorityClass) {
        return build(job, namespace, priorityClass, Map.of());
    }

    /**
     * @param gpuProducts the cluster's {@code nvidia.com/gpu.product} value per GPU model: a job with GPUs of a model
     *     listed there gets a node selector on it
     */
    public static Job build(JobRecord job, String namespace, String priorityClass, Map<String, String> gpuProducts) {
        JobSpec spec = job.spec();
        Map<String, String> nodeSelector = new LinkedHashMap<>();
        if (job.gpuType() != null && spec.gpusPerReplicaOrZero() > 0) {
            gpuProducts.forEach((model, product) -> {
                if (model.equalsIgnoreCase(job.gpuType())) {
                    nodeSelector.put(GPU_PRODUCT_LABEL, product);
                }
            });
        }
        int replicas = spec.replicasOrOne();
        Map<String, String> labels = new LinkedHashMap<>();
        spec.labels().forEach(labels::put);
        labels.put(LABEL_JOB_ID, job.id());
        labels.put(LABEL_OWNER, labelValue(job.owner()));
        labels.put(LABEL_PROJECT, labelValue(job.project()));
        return new JobBuilder()
                .withNewMetadata().withName(job.id()).withNamespace(namespace).withLabels(labels)
                .addToAnnotations("jobmon.io/name", job.name()).endMetadata()
                .withNewSpec()
                .withCompletions(replicas).withParallelism(replicas)
                .withCompletionMode(replicas > 1 ? "Indexed" : "NonIndexed")
                .withBackoffLimit(0)
                .withNewTemplate()
                .withNewMetadata().withLabels(labels).endMetadata()
                .withNewSpec()
                .withRestartPolicy("Never")
                .withPriorityClassName(priorityClass)
                .withNodeSelector(nodeSelector.isEmpty() ? null : nodeSelector)
                .withContainers(container(job, spec))
                .withVolumes(volumes(spec))
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
    }

    private static Container container(JobRecord job, JobSpec spec) {
        Map<String, Quantity> resources = new LinkedHashMap<>();
        JobSpec.Resources r = spec.resources();
        if (r != null && r.cpu() != null) {
            resources.put("cpu", new Quantity(r.cpu()));
        }
        if (r != null && r.memory() != null) {
            resources.put("memory", new Quantity(r.memory()));
        }
        if (spec.gpusPerReplicaOrZero() > 0) {
            resources.put(GPU_RESOURCE, new Quantity(String.valueOf(spec.gpusPerReplicaOrZero())));
        }
        List<EnvVar> env = new ArrayList<>();
        env.add(new EnvVar("JOBMON_JOB_ID", job.id(), null));
        spec.env().forEach((k, v) -> env.add(new EnvVar(k, v, null)));
        List<VolumeMount> mounts = spec.volumes().stream()
                .map(v -> new VolumeMountBuilder().withName(v.name()).withMountPath(v.mountPath())
                        .withReadOnly(Boolean.TRUE.equals(v.readOnly())).build())
                .toList();
        ContainerBuilder c = new ContainerBuilder().withName("main").withImage(spec.image()).withEnv(env)
                .withVolumeMounts(mounts)
                .withNewResources().withRequests(resources).withLimits(resources).endResources();
        if (!spec.command().isEmpty()) {
            c.withCommand(spec.command());
        }
        if (!spec.args().isEmpty()) {
            c.withArgs(spec.args());
        }
        if (spec.workingDir() != null) {
            c.withWorkingDir(spec.workingDir());
        }
        return c.build();
    }

    private static List<Volume> volumes(JobSpec spec) {
        return spec.volumes().stream()
                .map(v -> new VolumeBuilder().withName(v.name()).withNewPersistentVolumeClaim()
                        .withClaimName(v.claimName()).withReadOnly(Boolean.TRUE.equals(v.readOnly()))
                        .endPersistentVolumeClaim().build())
                .toList();
    }

    /** A label value: at most 63 of {@code [A-Za-z0-9._-]}, starting and ending alphanumeric. */
    static String labelValue(String v) {
        String s = v == null ? "" : v.replaceAll("[^A-Za-z0-9._-]", "_");
        s = s.length() > 63 ? s.substring(0, 63) : s;
        return s.replaceAll("^[^A-Za-z0-9]+", "").replaceAll("[^A-Za-z0-9]+$", "");
    }
}
