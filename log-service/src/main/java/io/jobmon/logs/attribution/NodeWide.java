package io.jobmon.logs.attribution;

import java.util.regex.Pattern;

/**
 * Lines of a condition of the whole node, shown to every job on it (reason {@code node}): the kubelet's node status
 * ({@code Node became not ready}, {@code NodeNotReady}, {@code NodeHasDiskPressure}/{@code …InsufficientMemory}/
 * {@code …InsufficientPID}, {@code PLEG is not healthy}), the eviction manager reclaiming a node resource, a NIC or
 * InfiniBand port going down ({@code mlx5_core 0000:…: … Link down}, {@code ib0: … link down}, {@code NIC Link is
 * Down}), the NVIDIA driver and library disagreeing ({@code NVRM: API mismatch}, {@code Driver/library version
 * mismatch}), a kernel panic or lockup, a machine check ({@code mce: [Hardware Error]}).
 */
final class NodeWide {

    private static final Pattern PATTERN = Pattern.compile(String.join("|",
            "Node became not ready", "NodeNotReady", "\\bnode \\S+ (?:is )?not ready\\b", "NodeHas(?:Disk|Memory|PID)Pressure",
            "NodeHasInsufficient(?:Memory|PID)", "\\b(?:Disk|Memory|PID)Pressure\\b", "PLEG is not healthy",
            "[Ee]viction manager: (?:attempting to reclaim|must evict pod\\(s\\) to reclaim|unable to evict any pods)",
            "(?i:\\blink (?:is |has gone )?down\\b)", "(?i:\\bport \\d+ (?:state|link) .*\\bdown\\b)",
            "NVRM: API mismatch", "Driver/library version mismatch", "Kernel panic", "(?i:soft lockup)", "hard LOCKUP",
            "\\[Hardware Error]", "Machine check events logged"));

    private NodeWide() {
    }

    static boolean matches(String text) {
        return PATTERN.matcher(text).find();
    }
}
