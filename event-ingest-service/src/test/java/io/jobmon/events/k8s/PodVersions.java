package io.jobmon.events.k8s;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** Later versions of the running pod fixture: restarted, with how its last run ended, on another resourceVersion. */
public final class PodVersions {

    private PodVersions() {
    }

    /** {@code pod-running} of {@code jobId}/{@code podName} at {@code resourceVersion} after {@code restarts}. */
    public static ObjectNode restarted(String jobId, String podName, long resourceVersion, int restarts,
            String lastReason, int lastExitCode) {
        ObjectNode pod = (ObjectNode) Fixtures.retarget("pod-running", jobId, podName, jobId + "-" + podName,
                resourceVersion);
        ObjectNode c = (ObjectNode) pod.path("status").path("containerStatuses").get(0);
        c.put("restartCount", restarts);
        if (lastReason != null) {
            c.putObject("lastState").putObject("terminated").put("exitCode", lastExitCode).put("reason", lastReason)
                    .put("startedAt", "2025-03-04T09:01:11Z").put("finishedAt", "2025-03-04T09:20:00Z");
        }
        return pod;
    }

    public static PodView view(ObjectNode pod) {
        return PodParser.parse(pod, false);
    }
}
