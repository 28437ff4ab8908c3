package io.jobmon.sim.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.sim.scenario.Scenarios;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class DemoPlanTest {

    private static final List<String> ISSUE_SCENARIOS = List.of("oom", "cuda-oom", "nccl-timeout", "hang", "image-pull",
            "xid-79", "ecc", "resume-trap", "dataloader-slow", "throttling", "node-lost", "quota", "preempted", "evicted",
            "missing-module", "bad-data-path");

    @Test
    void theDemoPlaysEveryScenarioTheIssueNamesAndHealthyRuns() {
        Set<String> played = DemoPlan.jobs().stream().map(j -> String.valueOf(j.scenario())).collect(Collectors.toSet());
        assertTrue(played.containsAll(ISSUE_SCENARIOS), "missing: " + ISSUE_SCENARIOS.stream()
                .filter(s -> !played.contains(s)).toList());
        assertTrue(played.contains("null"), "no healthy run");
    }

    @Test
    void everyScenarioOfTheDemoIsOneTheSimKnows() {
        for (DemoPlan.DemoJob j : DemoPlan.jobs()) {
            if (j.scenario() != null) {
                assertEquals(j.scenario(), Scenarios.named(j.scenario()).name(), j.name());
            }
        }
    }

    @Test
    void usersSubmitToTheirOwnProjectsAndOneJobIsStoppedOneSharedOneAGangOfWholeNodes() {
        for (DemoPlan.DemoJob j : DemoPlan.jobs()) {
            assertEquals("carol".equals(j.user()) ? "project-cv" : "project-nlp", j.project(), j.name());
        }
        assertEquals(Set.of("alice", "bob", "carol"), DemoPlan.jobs().stream().map(DemoPlan.DemoJob::user)
                .collect(Collectors.toSet()));
        assertEquals(1, DemoPlan.jobs().stream().filter(j -> j.then() == DemoPlan.Then.STOP_WHEN_RUNNING).count());
        assertEquals(1, DemoPlan.jobs().stream().filter(j -> j.then() == DemoPlan.Then.SHARE_WITH_CAROL).count());
        // a gang of four whole 8-GPU nodes waits while the first wave runs
        assertTrue(DemoPlan.jobs().stream().anyMatch(j -> j.replicas() >= 4 && j.gpus() == 8));
    }

    @Test
    void aJobsSpecCarriesItsScenarioAsTheLabelTheSimReads() {
        DemoPlan.DemoJob oom = DemoPlan.jobs().stream().filter(j -> "oom".equals(j.scenario())).findFirst().orElseThrow();
        Map<String, Object> spec = oom.spec("sim");
        assertEquals(Map.of(Scenarios.LABEL, "oom"), spec.get("labels"));
        assertEquals("sim", spec.get("cluster"));
        assertEquals(Map.of("gpuType", oom.gpuType(), "gpusPerReplica", oom.gpus()), spec.get("resources"));
    }
}
