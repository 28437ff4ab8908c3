package io.jobmon.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The sim's options: arguments over JOBMON_SIM_* variables over defaults; bad values are refused with a reason. */
class SimConfigTest {

    @Test
    void defaultsSuitTheLocalStack() {
        SimConfig c = SimConfig.parse(new String[0], Map.of());
        assertEquals(16443, c.apiPort());
        assertEquals(16444, c.adminPort());
        assertEquals(19400, c.exporterBasePort());
        assertEquals("A800:4x8,H100:2x8", c.pools());
        assertEquals(Path.of(".jobmon/sim/kubeconfig"), c.kubeconfig());
        assertNull(c.kafkaBootstrap());
        assertEquals(Duration.ofMinutes(10), c.runTime());
        assertEquals(1.0, c.timeScale());
    }

    @Test
    void argumentsWinOverTheEnvironment() {
        SimConfig c = SimConfig.parse(new String[] {"--api-port", "17000", "--run-time=90s"},
                Map.of("JOBMON_SIM_API_PORT", "18000", "JOBMON_SIM_KAFKA_BOOTSTRAP", "127.0.0.1:9092",
                        "JOBMON_SIM_QUOTAS", "jobmon-jobs:32,team-b:16", "JOBMON_SIM_STATE_DIR", "/tmp/s"));
        assertEquals(17000, c.apiPort());
        assertEquals(Duration.ofSeconds(90), c.runTime());
        assertEquals("127.0.0.1:9092", c.kafkaBootstrap());
        assertEquals(List.of(new SimBootstrap.GpuQuota("jobmon-jobs", 32), new SimBootstrap.GpuQuota("team-b", 16)), c.quotas());
        assertEquals(Path.of("/tmp/s/kubeconfig"), c.kubeconfig());
    }

    @Test
    void badValuesAreRefusedWithTheReason() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SimConfig.parse(new String[] {"--pools", "A800:4"}, Map.of()))
                .getMessage().contains("MODEL:NODESxGPUS"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SimConfig.parse(new String[] {"--run-time", "ten"}, Map.of()))
                .getMessage().contains("not a duration"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SimConfig.parse(new String[] {"--colour", "red"}, Map.of()))
                .getMessage().contains("unknown option(s): --colour"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> SimConfig.parse(new String[] {"--time-scale", "0"}, Map.of()))
                .getMessage().contains("time-scale"));
    }
}
