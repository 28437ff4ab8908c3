package io.jobmon.sim.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.sim.cluster.Fleet;
import io.jobmon.sim.cluster.GpuDevice;
import io.jobmon.sim.cluster.Pools;
import io.jobmon.sim.cluster.SimNode;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The exporters' text parses as Prometheus exposition format and carries what dcgm-exporter and node_exporter carry. */
class ExpositionTest {

    private static final Instant NOW = Instant.parse("2026-07-13T10:00:00Z");

    private static SimNode node() {
        Fleet fleet = new Fleet(Pools.parse("A800:1x8"), NOW.minus(Duration.ofDays(3)));
        return fleet.nodes().iterator().next();
    }

    @Test
    void dcgmExporterOutputIsValidAndAttributesTheGpusAPodHolds() {
        SimNode node = node();
        GpuDevice g0 = node.gpus().get(0);
        g0.hold(new GpuDevice.Holder("jobmon-jobs", "job-1-abcde", "main"), NOW.minusSeconds(60));
        g0.run(GpuLoad.training(93, 65_000), NOW.minusSeconds(60));
        node.gpus().get(3).xid(79);
        String text = DcgmExporter.render(node, NOW, new Random(1));

        var families = ExpositionParser.parse(text);
        assertEquals(DcgmCounters.all().stream().filter(c -> !"label".equals(c.type())).count(), families.size());
        var util = families.get("DCGM_FI_DEV_GPU_UTIL");
        assertEquals("gauge", util.type());
        assertEquals("GPU utilization (in %).", util.help());
        assertEquals(8, util.samples().size());
        var held = util.samples().get(0);
        assertEquals(Map.of("gpu", "0", "UUID", g0.uuid(), "pci_bus_id", "00000000:07:00.0", "device", "nvidia0",
                "modelName", "NVIDIA A800-SXM4-80GB", "Hostname", "gpu-a800-01", "DCGM_FI_DRIVER_VERSION", "535.183.06",
                "container", "main", "namespace", "jobmon-jobs", "pod", "job-1-abcde"), held.labels());
        assertTrue(held.value() >= 80 && held.value() <= 100, "util " + held.value());
        assertEquals(List.of("gpu", "UUID", "pci_bus_id", "device", "modelName", "Hostname", "DCGM_FI_DRIVER_VERSION",
                "container", "namespace", "pod"), List.copyOf(held.labels().keySet()), "dcgm-exporter's label order");
        assertEquals(0, util.samples().get(1).value());
        assertTrue(!util.samples().get(1).labels().containsKey("pod"), "a free GPU has no pod");
        var xid = families.get("DCGM_FI_DEV_XID_ERRORS").samples().get(3);
        assertEquals(79, xid.value());
        assertEquals("GPU has fallen off the bus", xid.labels().get("err_msg"));
        assertTrue(text.contains("DCGM_FI_DEV_POWER_USAGE{gpu=\"0\""));
        assertTrue(families.get("DCGM_FI_DEV_POWER_USAGE").samples().get(0).raw().matches("\\d+\\.\\d{6}"), "%f");
        double used = families.get("DCGM_FI_DEV_FB_USED").samples().get(0).value();
        double free = families.get("DCGM_FI_DEV_FB_FREE").samples().get(0).value();
        double reserved = families.get("DCGM_FI_DEV_FB_RESERVED").samples().get(0).value();
        assertEquals(81920, used + free + reserved);
    }

    @Test
    void nodeExporterOutputIsValidWithItsCollectorsNamesAndCountersGrow() {
        SimNode node = node();
        node.podCpu("ns/p", 0.5, NOW.minusSeconds(120));
        var families = ExpositionParser.parse(NodeExporter.render(node, NOW));
        assertEquals("counter", families.get("node_cpu_seconds_total").type());
        assertEquals(128 * 8, families.get("node_cpu_seconds_total").samples().size());
        assertEquals(Map.of("cpu", "0", "mode", "idle"), families.get("node_cpu_seconds_total").samples().get(0).labels());
        assertEquals("Memory information field MemAvailable_bytes.", families.get("node_memory_MemAvailable_bytes").help());
        assertEquals(Map.of("device", "/dev/nvme0n1p2", "device_error", "", "fstype", "ext4", "mountpoint", "/"),
                families.get("node_filesystem_avail_bytes").samples().get(0).labels());
        assertEquals("untyped", families.get("node_vmstat_oom_kill").type());
        double user1 = userSeconds(families);
        double user2 = userSeconds(ExpositionParser.parse(NodeExporter.render(node, NOW.plusSeconds(60))));
        assertTrue(user2 > user1, "node_cpu_seconds_total grows");
        assertEquals(String.valueOf(NOW.minus(Duration.ofDays(3)).getEpochSecond()).length(), 10);
        assertTrue(families.get("node_boot_time_seconds").samples().get(0).raw().matches("\\d\\.\\d+e\\+09"),
                "Go's 'g' formatting: " + families.get("node_boot_time_seconds").samples().get(0).raw());
    }

    @Test
    void nvlinkRatesFollowTheLoadAndInfinibandPortsCountTheNodesNcclTraffic() {
        SimNode node = node();
        node.gpus().get(0).run(GpuLoad.training(93, 65_000), NOW.minusSeconds(60));
        var dcgm = ExpositionParser.parse(DcgmExporter.render(node, NOW, new Random(1)));
        for (String name : List.of("DCGM_FI_PROF_NVLINK_RX_BYTES", "DCGM_FI_PROF_NVLINK_TX_BYTES")) {
            assertEquals("gauge", dcgm.get(name).type());
            assertTrue(dcgm.get(name).samples().get(0).value() > 1e9, name + " of a training GPU");
            assertTrue(dcgm.get(name).samples().get(1).value() < 1e8, name + " of an idle one");
        }
        node.podNetwork("ns/p", 6e9, NOW.minusSeconds(120));
        var before = ExpositionParser.parse(NodeExporter.render(node, NOW));
        var rx = before.get("node_infiniband_port_data_received_bytes_total");
        assertEquals("counter", rx.type());
        assertEquals("Number of data octets received on all links", rx.help());
        assertEquals(4, rx.samples().size(), "one HCA per two GPUs");
        assertEquals(Map.of("device", "mlx5_0", "port", "1"), rx.samples().get(0).labels());
        assertTrue(rx.samples().get(0).value() >= 6e9 * 120 / 4, "the NCCL bytes over the HCAs");
        assertEquals("counter", before.get("node_infiniband_port_data_transmitted_bytes_total").type());
        var after = ExpositionParser.parse(NodeExporter.render(node, NOW.plusSeconds(15)));
        assertTrue(after.get("node_infiniband_port_data_received_bytes_total").samples().get(0).value()
                > rx.samples().get(0).value(), "counts on");
    }

    private static double userSeconds(Map<String, ExpositionParser.Family> f) {
        return f.get("node_cpu_seconds_total").samples().stream().filter(s -> "user".equals(s.labels().get("mode")))
                .mapToDouble(ExpositionParser.Sample::value).sum();
    }

    @Test
    void replayedSeriesAreServedOnceEachWhenDueWithTheirTimestamps() {
        ReplaySeries replay = new ReplaySeries();
        replay.add("dgx-a100-07", new ReplaySeries.Series("DCGM_FI_DEV_GPU_UTIL", Map.of("gpu", "2", "Hostname", "dgx-a100-07"),
                List.of(NOW.minusSeconds(30), NOW.minusSeconds(15), NOW.plusSeconds(15)), List.of(88.0, 87.0, 0.0)));
        var due = ExpositionParser.parse(replay.nextDcgm("dgx-a100-07", NOW)).get("DCGM_FI_DEV_GPU_UTIL").samples();
        assertEquals(List.of(88.0, 87.0), due.stream().map(ExpositionParser.Sample::value).toList());
        assertEquals(List.of(NOW.minusSeconds(30).toEpochMilli(), NOW.minusSeconds(15).toEpochMilli()),
                due.stream().map(ExpositionParser.Sample::timestamp).toList());
        assertEquals(1, replay.pending());
        assertEquals("", replay.nextDcgm("dgx-a100-07", NOW.plusSeconds(5)), "nothing new is due");
        assertEquals(NOW.plusSeconds(15).toEpochMilli(), ExpositionParser.parse(replay.nextDcgm("dgx-a100-07",
                NOW.plusSeconds(15))).get("DCGM_FI_DEV_GPU_UTIL").samples().get(0).timestamp());
        assertEquals("", replay.nextDcgm("dgx-a100-07", NOW.plusSeconds(60)));
        assertEquals(0, replay.pending());
    }

    @Test
    void goFloatFormattingMatchesClientGolang() {
        assertEquals("10870.69", Exposition.goFloat(10870.69));
        assertEquals("1.733012345e+09", Exposition.goFloat(1733012345));
        assertEquals("123456", Exposition.goFloat(123456));
        assertEquals("1.234567e+06", Exposition.goFloat(1234567));
        assertEquals("0.0001", Exposition.goFloat(0.0001));
        assertEquals("1e-05", Exposition.goFloat(0.00001));
        assertEquals("0", Exposition.goFloat(0));
    }
}
