package io.jobmon.jobs.job.service;

import io.jobmon.contracts.access.Visibility;
import io.jobmon.jobs.job.model.JobSpec;
import io.jobmon.jobs.job.model.JobSpec.Resources;
import io.jobmon.jobs.job.model.JobSpec.VolumeSpec;
import io.jobmon.jobs.job.model.Priority;
import java.util.List;
import java.util.Map;

/** Fills what a submission left out, and merges clone overrides onto a source spec. */
public final class SpecDefaults {

    private SpecDefaults() {
    }

    /**
     * The spec as stored: every optional field given its default (the queue: the cluster's first resource pool when
     * it lists some, else {@code jobmon.jobs.default-queue}); volumes owned by the job's project.
     */
    public static JobSpec apply(JobSpec s, SpecRules rules) {
        SpecRules.ClusterInfo cluster = s.cluster() == null ? null : rules.clusters().get(s.cluster());
        Resources r = s.resources() == null ? new Resources(null, 0, null, null) : s.resources();
        if (r.gpusPerReplica() == null) {
            r = new Resources(r.gpuType(), 0, r.cpu(), r.memory());
        }
        List<VolumeSpec> volumes = s.volumes() == null ? List.of() : s.volumes().stream()
                .map(v -> v == null || v.project() != null ? v
                        : new VolumeSpec(v.name(), v.claimName(), v.mountPath(), v.readOnly(), s.project()))
                .toList();
        return new JobSpec(s.name(), s.project(), s.cluster(),
                s.region() != null ? s.region() : cluster == null ? null : cluster.region(),
                s.queue() != null ? s.queue() : defaultQueue(cluster, rules.defaultQueue()),
                s.priority() != null ? s.priority() : Priority.NORMAL, s.image(), or(s.command()), or(s.args()),
                or(s.env()), s.workingDir(), s.replicas() != null ? s.replicas() : 1, r, volumes,
                TagRules.normalise(s.tags()), s.visibility() != null ? s.visibility() : Visibility.PRIVATE,
                s.supportsRestart() != null ? s.supportsRestart() : false,
                s.autoFaultHandling() != null ? s.autoFaultHandling() : false,
                s.maxRetries() != null ? s.maxRetries() : 0, or(s.labels()));
    }

    /** The source spec with every non-null override in its place (resources field by field). */
    public static JobSpec merge(JobSpec src, JobSpec o) {
        if (o == null) {
            return src;
        }
        Resources r = src.resources();
        if (o.resources() != null) {
            Resources x = o.resources();
            Resources base = r == null ? new Resources(null, null, null, null) : r;
            r = new Resources(pick(x.gpuType(), base.gpuType()), pick(x.gpusPerReplica(), base.gpusPerReplica()),
                    pick(x.cpu(), base.cpu()), pick(x.memory(), base.memory()));
        }
        return new JobSpec(pick(o.name(), src.name()), pick(o.project(), src.project()),
                pick(o.cluster(), src.cluster()), o.cluster() != null && o.region() == null ? null
                        : pick(o.region(), src.region()),
                pick(o.queue(), src.queue()), pick(o.priority(), src.priority()), pick(o.image(), src.image()),
                pick(o.command(), src.command()), pick(o.args(), src.args()), pick(o.env(), src.env()),
                pick(o.workingDir(), src.workingDir()), pick(o.replicas(), src.replicas()), r,
                pick(o.volumes(), src.volumes()), pick(o.tags(), src.tags()), pick(o.visibility(), src.visibility()),
                pick(o.supportsRestart(), src.supportsRestart()), pick(o.autoFaultHandling(), src.autoFaultHandling()),
                pick(o.maxRetries(), src.maxRetries()), pick(o.labels(), src.labels()));
    }

    private static <T> T pick(T override, T base) {
        return override != null ? override : base;
    }

    private static <T> List<T> or(List<T> v) {
        return v == null ? List.of() : v;
    }

    private static <K, V> Map<K, V> or(Map<K, V> v) {
        return v == null ? Map.of() : v;
    }

    /** The cluster's queue named {@code jobmon.jobs.default-queue} if it has one, else its first (none: that name). */
    static String defaultQueue(SpecRules.ClusterInfo cluster, String configured) {
        if (cluster == null || cluster.queues().isEmpty() || cluster.queueNames().contains(configured)) {
            return configured;
        }
        return cluster.queueNames().get(0);
    }
}
