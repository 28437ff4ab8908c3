package io.jobmon.sim.api;

import io.fabric8.mockwebserver.http.MockResponse;
import io.jobmon.sim.telemetry.Exposition;
import io.jobmon.sim.telemetry.ExporterServers;
import java.util.Optional;

/**
 * The API server's proxy to a node's kubelet ({@code GET /api/v1/nodes/{node}/proxy/metrics/cadvisor}, RBAC
 * {@code nodes/proxy} {@code get}): the kubelet's cAdvisor text; a node the cluster does not have is a 404 Status
 * ({@code nodes "x" not found}), a node whose kubelet cannot be reached a 503 Status, as the real API server answers
 * when its dial fails.
 */
@FunctionalInterface
public interface KubeletProxy {

    /** The node's kubelet, when the sim serves one for that node. */
    Optional<ExporterServers.Endpoint> kubelet(String node);

    default MockResponse cadvisor(String node) {
        Optional<ExporterServers.Endpoint> k = kubelet(node);
        if (k.isEmpty()) {
            return status(404, "NotFound", "nodes \"" + node + "\" not found",
                    ",\"details\":{\"name\":\"" + node + "\",\"kind\":\"nodes\"}");
        }
        if (!k.get().up().get()) {
            return status(503, "ServiceUnavailable", "error trying to reach service: dial tcp " + node
                    + ":10250: connect: no route to host", "");
        }
        return new MockResponse().setResponseCode(200).setHeader("Content-Type", Exposition.CONTENT_TYPE)
                .setBody(k.get().cadvisor().get());
    }

    private static MockResponse status(int code, String reason, String message, String details) {
        String body = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":\""
                + message.replace("\"", "\\\"") + "\",\"reason\":\"" + reason + "\"" + details + ",\"code\":" + code + "}";
        return new MockResponse().setResponseCode(code).setHeader("Content-Type", "application/json").setBody(body);
    }
}
