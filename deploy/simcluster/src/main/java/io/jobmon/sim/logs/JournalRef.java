package io.jobmon.sim.logs;

/**
 * Where a journal line comes from: the node, and the unit or the kernel.
 *
 * @param identifier {@code SYSLOG_IDENTIFIER}: {@code kernel}, {@code kubelet}, {@code containerd}
 * @param unit {@code _SYSTEMD_UNIT}, null for the kernel
 * @param transport {@code _TRANSPORT}: {@code kernel} or {@code stdout}
 * @param priority syslog priority (3 err, 4 warning, 6 info)
 */
public record JournalRef(String host, String bootId, String machineId, String identifier, String unit, int pid,
        String transport, int priority) {
}
