package io.jobmon.sim.logs;

import java.util.Map;

/**
 * A container whose log lines are shipped, with what Fluent Bit's kubernetes filter attaches from the API server and
 * the log file's name.
 *
 * @param containerId the runtime's container id (64 hex; the log file name's {@code docker_id})
 * @param imageId the image digest reference ({@code container_hash})
 */
public record ContainerRef(String namespace, String pod, String podUid, Map<String, String> labels,
        Map<String, String> annotations, String host, String podIp, String container, String containerId,
        String imageId, String image) {
}
