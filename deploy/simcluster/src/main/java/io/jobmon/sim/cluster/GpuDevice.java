package io.jobmon.sim.cluster;

import io.jobmon.sim.telemetry.GpuLoad;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.UUID;

/**
 * One GPU of a node: its identity as NVML reports it, the pod container that holds it (dcgm-exporter's pod
 * attribution), what runs on it, and its error counters. Changed on the sim's thread, read by the exporters.
 */
public final class GpuDevice {

    private static final String[] PCI_BUSES = {"07", "0B", "48", "4C", "88", "8B", "C9", "CB",
            "0F", "13", "50", "54", "90", "93", "D0", "D3"};

    /** Who holds the GPU: dcgm-exporter's {@code namespace}, {@code pod}, {@code container} labels. */
    public record Holder(String namespace, String pod, String container) {
    }

    private final int index;
    private final String uuid;
    private final String pciBusId;
    private final GpuModel model;
    private volatile Holder holder;
    private volatile GpuLoad load = GpuLoad.IDLE;
    private volatile Instant loadSince = Instant.EPOCH;
    private volatile int lastXid;
    private volatile long eccSbeVolatile;
    private volatile long eccDbeVolatile;
    private volatile long eccSbeAggregate;
    private volatile long eccDbeAggregate;
    private volatile long uncorrectableRemappedRows;
    private volatile boolean healthy = true;
    /** Total energy since boot (mJ) and NVLink bytes, at the rate of the current load. */
    private final io.jobmon.sim.cluster.Counter energy;
    private final io.jobmon.sim.cluster.Counter nvlinkBytes;

    GpuDevice(String node, int index, GpuModel model) {
        this.index = index;
        this.model = model;
        this.uuid = "GPU-" + UUID.nameUUIDFromBytes((node + "/" + index).getBytes(StandardCharsets.UTF_8));
        this.pciBusId = "00000000:" + PCI_BUSES[index % PCI_BUSES.length] + ":00.0";
        this.energy = new io.jobmon.sim.cluster.Counter(4.0e9 + index * 1.3e7, model.maxPowerW() * 150.0, Instant.now());
        this.nvlinkBytes = new io.jobmon.sim.cluster.Counter(0, 0, Instant.now());
    }

    public int index() {
        return index;
    }

    public String uuid() {
        return uuid;
    }

    /** As dcgm-exporter prints it: {@code 00000000:07:00.0}. */
    public String pciBusId() {
        return pciBusId;
    }

    /** As the kernel's NVRM lines print it: {@code 0000:07:00}. */
    public String kernelPciAddress() {
        return "0000:" + PCI_BUSES[index % PCI_BUSES.length] + ":00";
    }

    public GpuModel model() {
        return model;
    }

    public Holder holder() {
        return holder;
    }

    public GpuLoad load() {
        return load;
    }

    public Instant loadSince() {
        return loadSince;
    }

    public int lastXid() {
        return lastXid;
    }

    public long eccSbeVolatile() {
        return eccSbeVolatile;
    }

    public long eccDbeVolatile() {
        return eccDbeVolatile;
    }

    public long eccSbeAggregate() {
        return eccSbeAggregate;
    }

    public long eccDbeAggregate() {
        return eccDbeAggregate;
    }

    public long uncorrectableRemappedRows() {
        return uncorrectableRemappedRows;
    }

    /** A container starts holding the GPU (idle until a load is set). */
    public void hold(Holder h, Instant at) {
        holder = h;
        run(GpuLoad.IDLE, at);
    }

    /** The holder let go: idle, unattributed. */
    public void release(Instant at) {
        holder = null;
        run(GpuLoad.IDLE, at);
    }

    public void run(GpuLoad l, Instant since) {
        load = l;
        loadSince = since;
        var nominal = l.sample(model, java.time.Duration.ZERO, new java.util.Random(index));
        energy.rate(nominal.powerW() * 1000, since);
        nvlinkBytes.rate(nominal.util() / 100 * 40e9, since);
    }

    /** DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION: mJ since boot. */
    public long energyMillijoules(Instant at) {
        return (long) energy.total(at);
    }

    /** DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL. */
    public long nvlinkBytes(Instant at) {
        return (long) nvlinkBytes.total(at);
    }

    /** The device plugin reports the GPU usable (not after an Xid it treats as critical). */
    public boolean healthy() {
        return healthy;
    }

    public void healthy(boolean h) {
        healthy = h;
    }

    /** The driver reported an Xid (DCGM_FI_DEV_XID_ERRORS shows the last one). */
    public void xid(int code) {
        lastXid = code;
    }

    /** An uncorrectable double-bit ECC error: DBE counters up, a row remapped. */
    public void doubleBitError() {
        eccDbeVolatile++;
        eccDbeAggregate++;
        uncorrectableRemappedRows++;
    }

    /** Correctable single-bit ECC errors. */
    public void singleBitErrors(int n) {
        eccSbeVolatile += n;
        eccSbeAggregate += n;
    }
}
