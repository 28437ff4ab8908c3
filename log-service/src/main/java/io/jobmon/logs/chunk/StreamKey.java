package io.jobmon.logs.chunk;

/**
 * A log stream: the lines of one container of one pod of a job (user), or of one source on one node (system:
 * {@code container} holds the source, e.g. {@code kubelet}, {@code kernel}). {@code jobId} is null for system
 * streams and for user lines whose job is not known yet.
 */
public record StreamKey(String jobId, char kind, String node, String namespace, String pod, String container) {

    public static final char USER = 'u';
    public static final char SYSTEM = 's';

    public static StreamKey user(String jobId, String node, String namespace, String pod, String container) {
        return new StreamKey(jobId, USER, nz(node), nz(namespace), nz(pod), nz(container));
    }

    public static StreamKey system(String node, String source) {
        return new StreamKey(null, SYSTEM, nz(node), "", "", nz(source));
    }

    public boolean system() {
        return kind == SYSTEM;
    }

    public StreamKey withJob(String id) {
        return new StreamKey(id, kind, node, namespace, pod, container);
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
