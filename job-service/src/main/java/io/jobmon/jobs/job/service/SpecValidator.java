package io.jobmon.jobs.job.service;

import io.jobmon.contracts.access.Caller;
import io.jobmon.contracts.problem.ApiException;
import io.jobmon.contracts.problem.Problem.FieldError;
import io.jobmon.jobs.job.model.JobSpec;
import io.jobmon.jobs.job.model.JobSpec.Resources;
import io.jobmon.jobs.job.model.JobSpec.VolumeSpec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/** Checks a spec (after defaults) and names every invalid field in one 400. */
public final class SpecValidator {

    static final Pattern NAME = Pattern.compile("[\\p{L}\\p{N}][\\p{L}\\p{N} ._-]{0,127}");
    static final Pattern IMAGE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._/:@-]{0,511}");
    static final Pattern ENV_KEY = Pattern.compile("[A-Za-z_][A-Za-z0-9_.]{0,255}");
    static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
    static final Pattern DNS_NAME = Pattern.compile("[a-z0-9]([-.a-z0-9]{0,251}[a-z0-9])?");
    static final Pattern CPU = Pattern.compile("\\d{1,6}(\\.\\d{1,3})?m?");
    static final Pattern MEMORY = Pattern.compile("\\d{1,9}(\\.\\d{1,3})?(Ki|Mi|Gi|Ti|k|K|M|G|T)?");
    /**
     * The keys under {@code jobmon.io/} a user may set: {@code jobmon.io/sim-scenario} asks the local stack's simulated
     * cluster for a scenario (deploy/simcluster); the others are jobmon's own (job id, owner, project).
     */
    static final Set<String> USER_LABELS = Set.of("jobmon.io/sim-scenario");
    static final Pattern LABEL_KEY = Pattern.compile("([a-z0-9.-]{1,253}/)?[A-Za-z0-9]([A-Za-z0-9._-]{0,61}[A-Za-z0-9])?");
    static final Pattern LABEL_VALUE = Pattern.compile("([A-Za-z0-9]([A-Za-z0-9._-]{0,61}[A-Za-z0-9])?)?");

    private SpecValidator() {
    }

    /** @throws ApiException 400 with one error per invalid field */
    public static void validate(JobSpec s, Caller caller, SpecRules rules) {
        List<FieldError> e = new ArrayList<>();
        if (s.name() == null || !NAME.matcher(s.name()).matches()) {
            e.add(err("name", "spec.name"));
        }
        if (s.project() == null || !ListQueryParser.IDENTIFIER.matcher(s.project()).matches()) {
            e.add(err("project", "spec.project-required"));
        } else if (!caller.isAdmin() && !caller.inGroup(s.project())) {
            e.add(err("project", "spec.project-member", s.project()));
        }
        SpecRules.ClusterInfo cluster = s.cluster() == null ? null : rules.clusters().get(s.cluster());
        if (cluster == null) {
            e.add(err("cluster", "spec.cluster", String.join(", ", rules.clusters().keySet())));
        } else {
            if (s.region() != null && !s.region().equals(cluster.region())) {
                e.add(err("region", "spec.region", s.cluster(), cluster.region()));
            }
            queue(s, cluster, e);
        }
        if (s.queue() != null && !ListQueryParser.IDENTIFIER.matcher(s.queue()).matches()) {
            e.add(err("queue", "spec.identifier"));
        }
        if (s.image() == null || !IMAGE.matcher(s.image()).matches()) {
            e.add(err("image", "spec.image"));
        }
        strings(s.command(), "command", 256, e);
        strings(s.args(), "args", 1024, e);
        env(s.env(), e);
        if (s.workingDir() != null && (!s.workingDir().startsWith("/") || s.workingDir().length() > 1024)) {
            e.add(err("workingDir", "spec.working-dir"));
        }
        if (s.replicas() != null && (s.replicas() < 1 || s.replicas() > rules.maxReplicas())) {
            e.add(err("replicas", "spec.range", 1, rules.maxReplicas()));
        }
        resources(s.resources(), rules, e);
        volumes(s.volumes(), caller, rules, e);
        rules.tags().check(s.tags(), "tags", e);
        if (s.maxRetries() != null && (s.maxRetries() < 0 || s.maxRetries() > rules.maxRetries())) {
            e.add(err("maxRetries", "spec.range", 0, rules.maxRetries()));
        }
        labels(s.labels(), e);
        if (!e.isEmpty()) {
            throw ApiException.badRequest(e);
        }
    }

    /**
     * The queue must be one of the cluster's (any other string would become a queue and a metric label), open to
     * the job's project, and the job must fit its GPU models and limits.
     */
    private static void queue(JobSpec s, SpecRules.ClusterInfo cluster, List<FieldError> e) {
        if (s.queue() == null) {
            return;
        }
        SpecRules.Queue q = cluster.queue(s.queue()).orElse(null);
        if (q == null) {
            e.add(err("queue", "spec.queue", s.cluster(), String.join(", ", cluster.queueNames())));
            return;
        }
        if (s.project() != null && !q.openToProject(s.project())) {
            e.add(err("queue", "spec.queue-project", s.queue(), s.project()));
        }
        int gpus = s.gpusPerReplicaOrZero();
        String gpuType = s.resources() == null ? null : s.resources().gpuType();
        if (gpus > 0 && gpuType != null && !q.gpuTypes().isEmpty() && !q.gpuTypes().contains(gpuType)) {
            e.add(err("resources.gpuType", "spec.queue-gpu-type", s.queue(), String.join(", ", q.gpuTypes())));
        }
        if (q.maxGpusPerReplica() != null && gpus > q.maxGpusPerReplica()) {
            e.add(err("resources.gpusPerReplica", "spec.queue-gpus-per-replica", s.queue(), q.maxGpusPerReplica()));
        }
        if (q.maxGpusPerJob() != null && (long) gpus * s.replicasOrOne() > q.maxGpusPerJob()) {
            e.add(err("replicas", "spec.queue-gpus-per-job", s.queue(), q.maxGpusPerJob()));
        }
    }

    /** May this caller mount a volume of this project? */
    public static boolean mayMount(VolumeSpec v, Caller caller, SpecRules rules) {
        return !rules.volumesByProject() || caller.isAdmin() || v.project() == null || caller.inGroup(v.project());
    }

    private static void resources(Resources r, SpecRules rules, List<FieldError> e) {
        if (r == null) {
            return;
        }
        int gpus = r.gpusPerReplica() == null ? 0 : r.gpusPerReplica();
        if (gpus < 0 || gpus > rules.maxGpusPerReplica()) {
            e.add(err("resources.gpusPerReplica", "spec.range", 0, rules.maxGpusPerReplica()));
        }
        if (gpus > 0 && (r.gpuType() == null || !ListQueryParser.IDENTIFIER.matcher(r.gpuType()).matches())) {
            e.add(err("resources.gpuType", "spec.gpu-type"));
        }
        if (r.cpu() != null && !CPU.matcher(r.cpu()).matches()) {
            e.add(err("resources.cpu", "spec.cpu"));
        }
        if (r.memory() != null && !MEMORY.matcher(r.memory()).matches()) {
            e.add(err("resources.memory", "spec.memory"));
        }
    }

    private static void volumes(List<VolumeSpec> volumes, Caller caller, SpecRules rules, List<FieldError> e) {
        if (volumes == null) {
            return;
        }
        if (volumes.size() > 32) {
            e.add(err("volumes", "field.max-items", 32));
        }
        Set<String> names = new HashSet<>();
        Set<String> paths = new HashSet<>();
        for (int i = 0; i < volumes.size(); i++) {
            VolumeSpec v = volumes.get(i);
            String f = "volumes[" + i + "]";
            if (v == null) {
                e.add(err(f, "field.required"));
                continue;
            }
            if (v.name() == null || !DNS_LABEL.matcher(v.name()).matches() || !names.add(v.name())) {
                e.add(err(f + ".name", "spec.volume-name"));
            }
            if (v.claimName() == null || !DNS_NAME.matcher(v.claimName()).matches()) {
                e.add(err(f + ".claimName", "spec.volume-claim"));
            }
            if (v.mountPath() == null || !v.mountPath().startsWith("/") || !paths.add(v.mountPath())) {
                e.add(err(f + ".mountPath", "spec.volume-path"));
            }
            if (!mayMount(v, caller, rules)) {
                e.add(err(f + ".project", "spec.volume-project", v.project()));
            }
        }
    }

    private static void strings(List<String> values, String field, int max, List<FieldError> e) {
        if (values == null) {
            return;
        }
        if (values.size() > max) {
            e.add(err(field, "field.max-items", max));
        }
        for (int i = 0; i < values.size(); i++) {
            if (values.get(i) == null || values.get(i).length() > 8192) {
                e.add(err(field + "[" + i + "]", "field.max-length", 8192));
            }
        }
    }

    private static void env(Map<String, String> env, List<FieldError> e) {
        if (env == null) {
            return;
        }
        if (env.size() > 200) {
            e.add(err("env", "field.max-items", 200));
        }
        env.forEach((k, v) -> {
            if (!ENV_KEY.matcher(k).matches()) {
                e.add(err("env." + k, "spec.env-key"));
            } else if (v == null || v.length() > 32768) {
                e.add(err("env." + k, "field.max-length", 32768));
            }
        });
    }

    private static void labels(Map<String, String> labels, List<FieldError> e) {
        if (labels == null) {
            return;
        }
        if (labels.size() > 32) {
            e.add(err("labels", "field.max-items", 32));
        }
        labels.forEach((k, v) -> {
            if (!LABEL_KEY.matcher(k).matches() || (k.startsWith("jobmon.io/") && !USER_LABELS.contains(k))) {
                e.add(err("labels." + k, "spec.label-key"));
            } else if (v == null || v.length() > 63 || !LABEL_VALUE.matcher(v).matches()) {
                e.add(err("labels." + k, "spec.label-value"));
            }
        });
    }

    private static FieldError err(String field, String code, Object... args) {
        return FieldError.of(field, code, args);
    }
}
