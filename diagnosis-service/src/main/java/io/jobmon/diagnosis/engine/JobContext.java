package io.jobmon.diagnosis.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Facts about the job that every rule needs: its (possibly inferred) status, the reference time
 * "now" of the analysis, and which node runs which pod.
 */
final class JobContext {

    private static final Set<String> PENDING = Set.of("PENDING", "QUEUED", "PARTIALLY_PENDING");
    private static final Set<String> TERMINAL = Set.of("FAILED", "SUCCEEDED", "STOPPED");

    private final EvidenceBundle bundle;
    private final String status;
    private final Instant now;
    private final Map<String, String> podNode = new HashMap<>();
    private final Set<String> failedNodes = new HashSet<>();
    private final int restarts;
    private Map<String, Instant> lastLog;

    JobContext(EvidenceBundle bundle) {
        this.bundle = bundle;
        int r = 0;
        for (EvidenceBundle.Pod p : bundle.pods()) {
            if (p.name() != null && p.node() != null && !p.node().isBlank()) {
                podNode.put(p.name(), p.node());
            }
            if (p.node() != null && !p.node().isBlank() && failed(p)) {
                failedNodes.add(p.node());
            }
            for (EvidenceBundle.Container c : p.containers()) {
                r += c.restartCount() == null ? 0 : c.restartCount();
            }
        }
        this.restarts = r;
        this.status = bundle.job() != null && bundle.job().status() != null ? bundle.job().status() : inferStatus(bundle);
        this.now = referenceTime(bundle);
    }

    /** The pod failed or was killed: phase Failed/Unknown, or a container that ended with an error or was lost. */
    private static boolean failed(EvidenceBundle.Pod p) {
        String phase = p.phase() == null ? "" : p.phase();
        if (phase.equalsIgnoreCase("Failed") || phase.equalsIgnoreCase("Unknown")) {
            return true;
        }
        for (EvidenceBundle.Container c : p.containers()) {
            boolean nonZero = c.exitCode() != null && c.exitCode() != 0;
            String reason = c.reason() == null ? "" : c.reason();
            if (nonZero || reason.equals("OOMKilled") || reason.equals("ContainerStatusUnknown") || reason.equals("Error")) {
                return true;
            }
        }
        return false;
    }

    private static String inferStatus(EvidenceBundle b) {
        boolean running = false;
        boolean pending = false;
        boolean succeeded = !b.pods().isEmpty();
        for (EvidenceBundle.Pod p : b.pods()) {
            String phase = p.phase() == null ? "" : p.phase();
            if (phase.equalsIgnoreCase("Failed")) {
                return "FAILED";
            }
            running |= phase.equalsIgnoreCase("Running");
            pending |= phase.equalsIgnoreCase("Pending");
            succeeded &= phase.equalsIgnoreCase("Succeeded");
        }
        return running ? "RUNNING" : pending ? "PENDING" : succeeded ? "SUCCEEDED" : null;
    }

    private Instant referenceTime(EvidenceBundle b) {
        Instant finished = b.job() == null ? null : b.job().finishedAt();
        if (isTerminal() && finished != null) {
            return finished;
        }
        Instant latest = null;
        for (EvidenceBundle.LogLine l : b.logs()) {
            latest = max(latest, l.time());
        }
        for (EvidenceBundle.Event e : b.events()) {
            latest = max(latest, e.time());
        }
        for (EvidenceBundle.Metric m : b.metrics()) {
            if (!m.samples().isEmpty()) {
                latest = max(latest, m.samples().get(m.samples().size() - 1).time());
            }
        }
        Instant to = b.window() == null ? null : b.window().to();
        return max(max(latest, to), finished);
    }

    static Instant max(Instant a, Instant b) {
        if (a == null) {
            return b;
        }
        return b == null || a.isAfter(b) ? a : b;
    }

    EvidenceBundle bundle() {
        return bundle;
    }

    /** Upper-case status, inferred from pod phases when the bundle has none; may be {@code null}. */
    String status() {
        return status;
    }

    /** The end of the analysed period: finish time of a finished job, else the window end or latest data. */
    Instant now() {
        return now;
    }

    boolean isPending() {
        return status != null && PENDING.contains(status);
    }

    boolean isTerminal() {
        return status != null && TERMINAL.contains(status);
    }

    boolean isSucceeded() {
        return "SUCCEEDED".equals(status);
    }

    /** Failed, or abnormal (platform side), or stopped by someone. */
    boolean isFailedLike() {
        return "FAILED".equals(status) || "ABNORMAL".equals(status);
    }

    /** Running (or its job status is unknown / abnormal / stopping) so behaviour can be judged. */
    boolean isLive() {
        return status == null || "RUNNING".equals(status) || "ABNORMAL".equals(status) || "STOPPING".equals(status)
                || "PARTIALLY_PENDING".equals(status);
    }

    int totalRestarts() {
        return restarts;
    }

    /** Time of the last log line of a pod (or of any pod when {@code pod} is null). */
    Instant lastLog(String pod) {
        if (lastLog == null) {
            lastLog = new HashMap<>();
            for (EvidenceBundle.LogLine l : bundle.logs()) {
                if (l.time() != null) {
                    lastLog.merge(l.pod() == null ? "" : l.pod(), l.time(), JobContext::max);
                }
            }
        }
        if (pod == null) {
            return lastLog.values().stream().reduce(null, JobContext::max);
        }
        return lastLog.get(pod);
    }

    String nodeOf(String pod) {
        return pod == null ? null : podNode.get(pod);
    }

    /** The one node all the job's pods ran on, or {@code null} (several, or unknown). */
    String singleNode() {
        String only = null;
        for (String n : podNode.values()) {
            if (only != null && !only.equals(n)) {
                return null;
            }
            only = n;
        }
        return only;
    }

    /** Whether the bundle says which nodes the job's pods ran on. */
    boolean knowsPodNodes() {
        return !podNode.isEmpty();
    }

    /** A pod of the job ran on {@code node} (true when the pods' nodes are unknown). */
    boolean runsOn(String node) {
        return node == null || podNode.isEmpty() || podNode.containsValue(node);
    }

    /**
     * A pod of the job on {@code node} failed, and {@code t} (the node-level finding) is not after the job ended:
     * the node's condition came first and the pod's failure is its consequence.
     */
    boolean podFailedOnNodeAfter(String node, Instant t) {
        if (node == null || !failedNodes.contains(node)) {
            return false;
        }
        Instant end = finishedAt();
        return t == null || end == null || !t.isAfter(end.plus(Duration.ofMinutes(5)));
    }

    String jobName() {
        EvidenceBundle.Job j = bundle.job();
        if (j != null && j.name() != null && !j.name().isBlank()) {
            return j.name();
        }
        return j != null && j.id() != null ? j.id() : "the job";
    }

    Instant finishedAt() {
        return bundle.job() == null ? null : bundle.job().finishedAt();
    }
}
