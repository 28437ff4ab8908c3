package io.jobmon.jobs.job;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.contracts.access.Caller;
import io.jobmon.contracts.problem.ApiException;
import io.jobmon.jobs.job.model.JobSpec;
import io.jobmon.jobs.job.model.JobSpec.Resources;
import io.jobmon.jobs.job.model.JobSpec.VolumeSpec;
import io.jobmon.jobs.job.model.Priority;
import io.jobmon.jobs.job.service.SpecDefaults;
import io.jobmon.jobs.job.service.SpecRules;
import io.jobmon.jobs.job.service.SpecValidator;
import io.jobmon.jobs.job.service.TagRules;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SpecValidatorTest {

    static final SpecRules RULES = new SpecRules(100, 8, 5, "default",
            Map.of("gpu-a", new SpecRules.ClusterInfo("cn-north", "KUBERNETES", List.of(
                    new SpecRules.Queue("gpu-prod", List.of("A800", "H800"), 4, 16, 512, List.of(), null),
                    new SpecRules.Queue("cv-only", List.of(), null, null, null, List.of("project-cv"), null)))),
            new TagRules(20, 32, "[\\p{L}\\p{N}][\\p{L}\\p{N}_.-]*"), true);
    static final Caller ALICE = new Caller("alice", "t1", Set.of("project-nlp"), Set.of("user"));
    static final Caller CAROL = new Caller("carol", "t1", Set.of("project-cv"), Set.of("user"));

    static JobSpec spec() {
        return new JobSpec("bert-large", "project-nlp", "gpu-a", null, "gpu-prod", null, "reg/nlp/bert:1",
                List.of("python", "train.py"), null, Map.of("A", "1"), null, 2, new Resources("A800", 1, "8", "64Gi"),
                List.of(new VolumeSpec("data", "nlp-data", "/data", true, null)), List.of("bert"), null, true, true, 3,
                null);
    }

    @Test
    void defaultsFillRegionQueuePriorityAndVolumeProject() {
        JobSpec s = SpecDefaults.apply(spec(), RULES);
        assertEquals("cn-north", s.region());
        assertEquals(Priority.NORMAL, s.priority());
        assertEquals("project-nlp", s.volumes().get(0).project());
        assertDoesNotThrow(() -> SpecValidator.validate(s, ALICE, RULES));
    }

    @Test
    void aUserOutsideTheProjectMayNotSubmitToItOrMountItsVolumes() {
        JobSpec s = SpecDefaults.apply(spec(), RULES);
        ApiException e = assertThrows(ApiException.class, () -> SpecValidator.validate(s, CAROL, RULES));
        List<String> fields = e.toProblem().errors().stream().map(f -> f.field()).toList();
        assertTrue(fields.containsAll(List.of("project", "volumes[0].project")), fields.toString());
        assertFalse(SpecValidator.mayMount(s.volumes().get(0), CAROL, RULES));
        assertTrue(SpecValidator.mayMount(s.volumes().get(0), new Caller("root", "t1", Set.of(), Set.of("admin")),
                RULES));
    }

    @Test
    void cloneOverridesReplaceOnlyWhatTheyName() {
        JobSpec src = SpecDefaults.apply(spec(), RULES);
        JobSpec o = new JobSpec("bert-2", null, null, null, null, Priority.HIGH, null, null, null, null, null, 4,
                new Resources(null, 2, null, null), null, null, null, null, null, null, null);
        JobSpec m = SpecDefaults.merge(src, o);
        assertEquals("bert-2", m.name());
        assertEquals(Priority.HIGH, m.priority());
        assertEquals(4, m.replicas());
        assertEquals(2, m.resources().gpusPerReplica());
        assertEquals("A800", m.resources().gpuType());
        assertEquals(src.image(), m.image());
        assertEquals(src.volumes(), m.volumes());
    }

    @Test
    void limitsAndFormatsAreChecked() {
        JobSpec bad = new JobSpec("x", "project-nlp", "gpu-a", null, null, null, "reg/x:1", null, null, null, null, 101,
                new Resources("A800", 9, "lots", "1Zi"), null, null, null, null, null, 6, Map.of("jobmon.io/x", "y"));
        ApiException e = assertThrows(ApiException.class,
                () -> SpecValidator.validate(SpecDefaults.apply(bad, RULES), ALICE, RULES));
        List<String> fields = e.toProblem().errors().stream().map(f -> f.field()).toList();
        assertEquals(List.of("resources.gpusPerReplica", "replicas", "replicas", "resources.gpusPerReplica",
                "resources.cpu", "resources.memory", "maxRetries", "labels.jobmon.io/x"), fields);
    }

    @Test
    void theQueueMustBeOneOfTheClustersOpenToTheProjectAndTheJobMustFitItsPool() {
        JobSpec unknown = SpecDefaults.apply(new JobSpec("x", "project-nlp", "gpu-a", null, "any-string", null,
                "reg/x:1", null, null, null, null, 1, null, null, null, null, null, null, null, null), RULES);
        assertEquals(List.of("queue"), fields(unknown, ALICE));
        JobSpec closed = SpecDefaults.apply(new JobSpec("x", "project-nlp", "gpu-a", null, "cv-only", null,
                "reg/x:1", null, null, null, null, 1, null, null, null, null, null, null, null, null), RULES);
        assertEquals(List.of("queue"), fields(closed, ALICE));
        JobSpec wrongGpu = SpecDefaults.apply(new JobSpec("x", "project-nlp", "gpu-a", null, "gpu-prod", null,
                "reg/x:1", null, null, null, null, 5, new Resources("V100", 4, null, null), null, null, null, null,
                null, null, null), RULES);
        assertEquals(List.of("resources.gpuType", "replicas"), fields(wrongGpu, ALICE));
        assertDoesNotThrow(() -> SpecValidator.validate(SpecDefaults.apply(new JobSpec("x", "project-nlp", "gpu-a",
                null, "gpu-prod", null, "reg/x:1", null, null, null, null, 4, new Resources("H800", 4, null, null),
                null, null, null, null, null, null, null), RULES), ALICE, RULES));
    }

    static List<String> fields(JobSpec s, Caller c) {
        ApiException e = assertThrows(ApiException.class, () -> SpecValidator.validate(s, c, RULES));
        return e.toProblem().errors().stream().map(f -> f.field()).toList();
    }

    @Test
    void theSimScenarioLabelIsTheOneJobmonKeyAUserMaySet() {
        assertDoesNotThrow(() -> SpecValidator.validate(withLabels(Map.of("jobmon.io/sim-scenario", "cuda-oom")), ALICE,
                RULES));
        ApiException e = assertThrows(ApiException.class,
                () -> SpecValidator.validate(withLabels(Map.of("jobmon.io/owner", "bob")), ALICE, RULES));
        assertEquals(List.of("labels.jobmon.io/owner"), e.toProblem().errors().stream().map(f -> f.field()).toList());
    }

    private static JobSpec withLabels(Map<String, String> labels) {
        JobSpec b = SpecDefaults.apply(spec(), RULES);
        return new JobSpec(b.name(), b.project(), b.cluster(), b.region(), b.queue(), b.priority(), b.image(), b.command(),
                b.args(), b.env(), b.workingDir(), b.replicas(), b.resources(), b.volumes(), b.tags(), b.visibility(),
                b.supportsRestart(), b.autoFaultHandling(), b.maxRetries(), labels);
    }
}
