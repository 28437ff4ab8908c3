package io.jobmon.sim.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The API server's admission of a job's pod: its PriorityClass, the namespace's ResourceQuotas. */
class AdmissionTest {

    private static final Map<String, Integer> CLASSES = Map.of("jobmon-normal", 10_000);
    private static final Admission.Usage EIGHT_GPUS = new Admission.Usage(16_000, 128L << 30, 16_000, 128L << 30, 8);

    @Test
    void aPodOverTheGpuQuotaIsForbiddenWithTheQuotaPluginsMessage() {
        var quota = new Admission.Quota("team-nlp-gpu", Map.of("requests.nvidia.com/gpu", 32L, "pods", 100L),
                Map.of("requests.nvidia.com/gpu", 32L, "pods", 4L));
        Optional<String> denial = Admission.deny("bert-0-x7k2p", "jobmon-normal", CLASSES, EIGHT_GPUS, List.of(quota));
        assertEquals("pods \"bert-0-x7k2p\" is forbidden: exceeded quota: team-nlp-gpu, requested: "
                + "requests.nvidia.com/gpu=8, used: requests.nvidia.com/gpu=32, limited: requests.nvidia.com/gpu=32",
                denial.orElseThrow());
    }

    @Test
    void everyExceededResourceIsNamedSortedWithCanonicalQuantities() {
        var quota = new Admission.Quota("team", Map.of("requests.nvidia.com/gpu", 8L, "requests.memory", 256L << 30,
                "requests.cpu", 40_000L), Map.of("requests.nvidia.com/gpu", 4L, "requests.memory", 200L << 30,
                "requests.cpu", 10_000L));
        assertEquals("pods \"p\" is forbidden: exceeded quota: team, requested: requests.memory=128Gi,"
                + "requests.nvidia.com/gpu=8, used: requests.memory=200Gi,requests.nvidia.com/gpu=4, limited: "
                + "requests.memory=256Gi,requests.nvidia.com/gpu=8",
                Admission.deny("p", null, CLASSES, EIGHT_GPUS, List.of(quota)).orElseThrow());
    }

    @Test
    void aPodWithinTheQuotaIsAdmitted() {
        var quota = new Admission.Quota("team", Map.of("requests.nvidia.com/gpu", 32L), Map.of("requests.nvidia.com/gpu", 24L));
        assertTrue(Admission.deny("p", "jobmon-normal", CLASSES, EIGHT_GPUS, List.of(quota)).isEmpty());
    }

    @Test
    void aPriorityClassThatDoesNotExistIsForbidden() {
        assertEquals("pods \"p\" is forbidden: no PriorityClass with name jobmon-urgent was found",
                Admission.deny("p", "jobmon-urgent", CLASSES, EIGHT_GPUS, List.of()).orElseThrow());
    }

    @Test
    void quantitiesPrintAsTheApiServerPrintsThem() {
        assertEquals("1500m", Admission.quantity("requests.cpu", 1500));
        assertEquals("16", Admission.quantity("limits.cpu", 16_000));
        assertEquals("1Ti", Admission.quantity("requests.memory", 1L << 40));
        assertEquals("1536Mi", Admission.quantity("memory", 1536L << 20));
    }
}
