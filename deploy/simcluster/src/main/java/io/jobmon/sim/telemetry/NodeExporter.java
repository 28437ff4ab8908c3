package io.jobmon.sim.telemetry;

import io.jobmon.sim.cluster.NodeSpec;
import io.jobmon.sim.cluster.SimNode;
import java.time.Instant;

/**
 * A node's node_exporter {@code /metrics} (v1.8, the collectors jobmon reads): CPU seconds per CPU and mode, memory,
 * the root filesystem, load, network bytes, OOM kills, boot time, time and uname, with node_exporter's HELP texts and
 * types, label pairs sorted by name and values as Go's {@code 'g'} formatting prints them.
 */
public final class NodeExporter {

    static final String ROOT_DEVICE = "/dev/nvme0n1p2";
    private static final String[] MODES = {"idle", "iowait", "irq", "nice", "softirq", "steal", "system", "user"};
    /** How busy CPU time splits over the modes (iowait, irq, nice, softirq, steal, system, user). */
    private static final double[] BUSY_SPLIT = {0.0, 0.02, 0.003, 0.0, 0.012, 0.0, 0.16, 0.805};

    private NodeExporter() {
    }

    public static String render(SimNode node, Instant now) {
        StringBuilder out = new StringBuilder(80_000);
        int cpus = (int) (NodeSpec.CPU_MILLIS / 1000);
        family(out, "node_boot_time_seconds", "gauge", "Node boot time, in unixtime.");
        sample(out, "node_boot_time_seconds", "", node.bootTime().getEpochSecond());

        double busy = node.cpuBusySeconds(now);
        double idle = node.cpuIdleSeconds(now);
        family(out, "node_cpu_seconds_total", "counter", "Seconds the CPUs spent in each mode.");
        for (int cpu = 0; cpu < cpus; cpu++) {
            double share = (1 + ((cpu * 37) % 11 - 5) / 100.0) / cpus;
            for (int m = 0; m < MODES.length; m++) {
                double v = m == 0 ? idle * share : busy * share * BUSY_SPLIT[m];
                sample(out, "node_cpu_seconds_total", "cpu=\"" + cpu + "\",mode=\"" + MODES[m] + "\"", round2(v));
            }
        }

        long size = NodeSpec.DISK_BYTES;
        long free = size - node.diskUsedBytes();
        String fs = "device=\"" + ROOT_DEVICE + "\",device_error=\"\",fstype=\"ext4\",mountpoint=\"/\"";
        family(out, "node_filesystem_avail_bytes", "gauge", "Filesystem space available to non-root users in bytes.");
        sample(out, "node_filesystem_avail_bytes", fs, Math.max(0, free - size / 20));
        family(out, "node_filesystem_free_bytes", "gauge", "Filesystem free space in bytes.");
        sample(out, "node_filesystem_free_bytes", fs, Math.max(0, free));
        family(out, "node_filesystem_size_bytes", "gauge", "Filesystem size in bytes.");
        sample(out, "node_filesystem_size_bytes", fs, size);

        infiniband(out, node, now);

        double load = Math.max(0.05, cpus * busyFraction(node, now));
        family(out, "node_load1", "gauge", "1m load average.");
        sample(out, "node_load1", "", round2(load));
        family(out, "node_load15", "gauge", "15m load average.");
        sample(out, "node_load15", "", round2(load * 0.93));
        family(out, "node_load5", "gauge", "5m load average.");
        sample(out, "node_load5", "", round2(load * 0.97));

        long total = NodeSpec.MEMORY_BYTES - (4L << 30);
        long used = Math.min(total, node.memoryUsedBytes());
        long cached = Math.min(total - used, 180L << 30);
        family(out, "node_memory_Buffers_bytes", "gauge", "Memory information field Buffers_bytes.");
        sample(out, "node_memory_Buffers_bytes", "", 2_134_016_000L);
        family(out, "node_memory_Cached_bytes", "gauge", "Memory information field Cached_bytes.");
        sample(out, "node_memory_Cached_bytes", "", cached);
        family(out, "node_memory_MemAvailable_bytes", "gauge", "Memory information field MemAvailable_bytes.");
        sample(out, "node_memory_MemAvailable_bytes", "", total - used);
        family(out, "node_memory_MemFree_bytes", "gauge", "Memory information field MemFree_bytes.");
        sample(out, "node_memory_MemFree_bytes", "", Math.max(0, total - used - cached));
        family(out, "node_memory_MemTotal_bytes", "gauge", "Memory information field MemTotal_bytes.");
        sample(out, "node_memory_MemTotal_bytes", "", total);

        family(out, "node_network_receive_bytes_total", "counter", "Network device statistic receive_bytes.");
        sample(out, "node_network_receive_bytes_total", "device=\"eth0\"", Math.floor(node.networkReceivedBytes(now)));
        family(out, "node_network_transmit_bytes_total", "counter", "Network device statistic transmit_bytes.");
        sample(out, "node_network_transmit_bytes_total", "device=\"eth0\"", Math.floor(node.networkSentBytes(now)));

        family(out, "node_time_seconds", "gauge", "System time in seconds since epoch (1970).");
        sample(out, "node_time_seconds", "", now.toEpochMilli() / 1000.0);
        family(out, "node_uname_info", "gauge", "Labeled system information as provided by the uname system call.");
        sample(out, "node_uname_info", "domainname=\"(none)\",machine=\"x86_64\",nodename=\"" + node.name()
                + "\",release=\"5.15.0-119-generic\",sysname=\"Linux\",version=\"#129-Ubuntu SMP Fri Aug 2 19:25:20 UTC 2024\"", 1);
        family(out, "node_vmstat_oom_kill", "untyped", "/proc/vmstat information field oom_kill.");
        sample(out, "node_vmstat_oom_kill", "", node.oomKills());
        return out.toString();
    }

    /**
     * The infiniband collector (sysfs {@code /sys/class/infiniband/<device>/ports/<port>/counters}): one ConnectX
     * HCA {@code mlx5_<i>} per two GPUs, port 1 each, active at 200 Gb/s; the node's NCCL traffic split over them.
     */
    private static void infiniband(StringBuilder out, SimNode node, Instant now) {
        int hcas = Math.max(1, node.gpus().size() / 2);
        double rx = node.infinibandReceivedBytes(now) / hcas;
        double tx = node.infinibandSentBytes(now) / hcas;
        family(out, "node_infiniband_info", "gauge", "Non-numeric data from /sys/class/infiniband/<device>, value is always 1.");
        for (int i = 0; i < hcas; i++) {
            sample(out, "node_infiniband_info", "board_id=\"MT_0000000223\",device=\"mlx5_" + i
                    + "\",firmware_version=\"22.39.1002\",hca_type=\"MT4123\"", 1);
        }
        ibPort(out, hcas, "node_infiniband_link_downed_total", "counter",
                "Number of times the link failed to recover from an error state and went down", i -> 0);
        ibPort(out, hcas, "node_infiniband_port_data_received_bytes_total", "counter",
                "Number of data octets received on all links", i -> Math.floor(rx * (1 + (i % 2) * 0.002)));
        ibPort(out, hcas, "node_infiniband_port_data_transmitted_bytes_total", "counter",
                "Number of data octets transmitted on all links", i -> Math.floor(tx * (1 + (i % 2) * 0.002)));
        ibPort(out, hcas, "node_infiniband_port_errors_received_total", "counter",
                "Number of packets containing an error that were received on this port", i -> 0);
        ibPort(out, hcas, "node_infiniband_port_packets_received_total", "counter",
                "Number of packets received on all VLs by this port (including errors)", i -> Math.floor(rx / 4096));
        ibPort(out, hcas, "node_infiniband_port_packets_transmitted_total", "counter",
                "Number of packets transmitted on all VLs from this port (including errors)", i -> Math.floor(tx / 4096));
        ibPort(out, hcas, "node_infiniband_rate_bytes_per_second", "gauge", "Maximum signal transfer rate", i -> 2.5e10);
        ibPort(out, hcas, "node_infiniband_state_id", "gauge",
                "State of the InfiniBand port (0: no change, 1: down, 2: init, 3: armed, 4: active, 5: act defer)", i -> 4);
    }

    private static void ibPort(StringBuilder out, int hcas, String name, String type, String help,
            java.util.function.IntToDoubleFunction value) {
        family(out, name, type, help);
        for (int i = 0; i < hcas; i++) {
            sample(out, name, "device=\"mlx5_" + i + "\",port=\"1\"", value.applyAsDouble(i));
        }
    }

    private static double busyFraction(SimNode node, Instant now) {
        double b = node.cpuBusySeconds(now);
        double i = node.cpuIdleSeconds(now);
        Instant before = now.minusSeconds(60);
        double db = b - node.cpuBusySeconds(before);
        double di = i - node.cpuIdleSeconds(before);
        return db + di <= 0 ? 0.02 : db / (db + di);
    }

    private static double round2(double v) {
        return Math.round(v * 100) / 100.0;
    }

    private static void family(StringBuilder out, String name, String type, String help) {
        out.append("# HELP ").append(name).append(' ').append(help).append('\n');
        out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    }

    private static void sample(StringBuilder out, String name, String labels, double value) {
        out.append(name);
        if (!labels.isEmpty()) {
            out.append('{').append(labels).append('}');
        }
        out.append(' ').append(Exposition.goFloat(value)).append('\n');
    }
}
