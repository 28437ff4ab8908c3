package io.jobmon.sim.kubelet;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** klog's line header, as Kubernetes components and the NVIDIA device plugin print it. */
final class Klog {

    private static final DateTimeFormatter HEADER = DateTimeFormatter.ofPattern("MMdd HH:mm:ss.SSSSSS")
            .withZone(ZoneOffset.UTC);

    private Klog() {
    }

    /** {@code I0506 03:27:40.882311       1 health.go:169] message}. */
    static String line(char severity, Instant at, int threadId, String where, String message) {
        return severity + HEADER.format(at) + String.format(java.util.Locale.ROOT, " %7d ", threadId) + where + "] " + message;
    }
}
