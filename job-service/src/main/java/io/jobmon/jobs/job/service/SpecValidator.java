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
            e.add(err("name", "required: 1-128 letters, digits, spaces, . _ - (starting with a letter or digit)"));
        }
        if (s.project() == null || !ListQueryParser.IDENTIFIER.matcher(s.project()).matches()) {
            e.add(err("project", "required: a project group"));
        } else if (!caller.isAdmin() && !caller.inGroup(s.project())) {
            e.add(err("project", "you are not a member of project group '" + s.project() + "'"));
        }
        SpecRules.ClusterInfo cluster = s.cluster() == null ? null : rules.clusters().get(s.cluster());
        if (cluster == null) {
            e.add(err("cluster", "required: one of " + rules.clusters().keySet()));
        } else {
            if (s.region() != null && !s.region().equals(cluster.region())) {
                e.add(err("region", "cluster '" + s.cluster() + "' is in region '" + cluster.region() + "'"));
            }
            if (s.queue() != null && !cluster.queues().isEmpty() && !cluster.queues().contains(s.queue())) {
                e.add(err("queue", "not a resource pool of cluster '" + s.cluster() + "': " + cluster.queues()));
            }
        }
        if (s.queue() != null && !ListQueryParser.IDENTIFIER.matcher(s.queue()).matches()) {
            e.add(err("queue", "letters, digits and . _ @ - only"));
        }
        if (s.image() == null || !IMAGE.matcher(s.image()).matches()) {
            e.add(err("image", "required: an image reference such as registry/team/train:1.2"));
        }
        strings(s.command(), "command", 256, e);
        strings(s.args(), "args", 1024, e);
        env(s.env(), e);
        if (s.workingDir() != null && (!s.workingDir().startsWith("/") || s.workingDir().length() > 1024)) {
            e.add(err("workingDir", "an absolute path"));
        }
        if (s.replicas() != null && (s.replicas() < 1 || s.replicas() > rules.maxReplicas())) {
            e.add(err("replicas", "from 1 to " + rules.maxReplicas()));
        }
        resources(s.resources(), rules, e);
        volumes(s.volumes(), caller, rules, e);
        rules.tags().check(s.tags(), "tags", e);
        if (s.maxRetries() != null && (s.maxRetries() < 0 || s.maxRetries() > rules.maxRetries())) {
            e.add(err("maxRetries", "from 0 to " + rules.maxRetries()));
        }
        labels(s.labels(), e);
        if (!e.isEmpty()) {
            throw ApiException.badRequest("the job spec has " + e.size() + " invalid field(s)", e);
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
            e.add(err("resources.gpusPerReplica", "from 0 to " + rules.maxGpusPerReplica()));
        }
        if (gpus > 0 && (r.gpuType() == null || !ListQueryParser.IDENTIFIER.matcher(r.gpuType()).matches())) {
            e.add(err("resources.gpuType", "required with GPUs: a GPU model such as A800"));
        }
        if (r.cpu() != null && !CPU.matcher(r.cpu()).matches()) {
            e.add(err("resources.cpu", "a Kubernetes CPU quantity such as 8 or 500m"));
        }
        if (r.memory() != null && !MEMORY.matcher(r.memory()).matches()) {
            e.add(err("resources.memory", "a Kubernetes memory quantity such as 64Gi"));
        }
    }

    private static void volumes(List<VolumeSpec> volumes, Caller caller, SpecRules rules, List<FieldError> e) {
        if (volumes == null) {
            return;
        }
        if (volumes.size() > 32) {
            e.add(err("volumes", "at most 32"));
        }
        Set<String> names = new HashSet<>();
        Set<String> paths = new HashSet<>();
        for (int i = 0; i < volumes.size(); i++) {
            VolumeSpec v = volumes.get(i);
            String f = "volumes[" + i + "]";
            if (v == null) {
                e.add(err(f, "must not be null"));
                continue;
            }
            if (v.name() == null || !DNS_LABEL.matcher(v.name()).matches() || !names.add(v.name())) {
                e.add(err(f + ".name", "required, unique: lower-case letters, digits, - (max 63)"));
            }
            if (v.claimName() == null || !DNS_NAME.matcher(v.claimName()).matches()) {
                e.add(err(f + ".claimName", "required: the PersistentVolumeClaim to mount"));
            }
            if (v.mountPath() == null || !v.mountPath().startsWith("/") || !paths.add(v.mountPath())) {
                e.add(err(f + ".mountPath", "required, unique: an absolute path"));
            }
            if (!mayMount(v, caller, rules)) {
                e.add(err(f + ".project", "you may not mount volumes of project '" + v.project() + "'"));
            }
        }
    }

    private static void strings(List<String> values, String field, int max, List<FieldError> e) {
        if (values == null) {
            return;
        }
        if (values.size() > max) {
            e.add(err(field, "at most " + max + " items"));
        }
        for (int i = 0; i < values.size(); i++) {
            if (values.get(i) == null || values.get(i).length() > 8192) {
                e.add(err(field + "[" + i + "]", "a string of at most 8192 characters"));
            }
        }
    }

    private static void env(Map<String, String> env, List<FieldError> e) {
        if (env == null) {
            return;
        }
        if (env.size() > 200) {
            e.add(err("env", "at most 200 variables"));
        }
        env.forEach((k, v) -> {
            if (!ENV_KEY.matcher(k).matches()) {
                e.add(err("env." + k, "not a valid variable name"));
            } else if (v == null || v.length() > 32768) {
                e.add(err("env." + k, "a string of at most 32768 characters"));
            }
        });
    }

    private static void labels(Map<String, String> labels, List<FieldError> e) {
        if (labels == null) {
            return;
        }
        if (labels.size() > 32) {
            e.add(err("labels", "at most 32 labels"));
        }
        labels.forEach((k, v) -> {
            if (!LABEL_KEY.matcher(k).matches() || (k.startsWith("jobmon.io/") && !USER_LABELS.contains(k))) {
                e.add(err("labels." + k, "not a valid label key (jobmon.io/ is reserved)"));
            } else if (v == null || v.length() > 63 || !LABEL_VALUE.matcher(v).matches()) {
                e.add(err("labels." + k, "not a valid label value"));
            }
        });
    }

    private static FieldError err(String field, String message) {
        return new FieldError(field, message);
    }
}
