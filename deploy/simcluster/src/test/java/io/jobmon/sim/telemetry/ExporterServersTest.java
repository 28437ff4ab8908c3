package io.jobmon.sim.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExporterServersTest {

    @Test
    void aReplayNodeWhosePortAnotherProcessHoldsIsServedOnAFreePortThatItsPodsPublish() throws Exception {
        ReplaySeries replay = new ReplaySeries();
        Instant now = Instant.parse("2026-08-09T14:05:00Z");
        replay.add("h100-r09-n01", new ReplaySeries.Series("DCGM_FI_DEV_GPU_TEMP", Map.of("gpu", "0"),
                List.of(now.minusSeconds(15), now), List.of(71.0, 91.0)), "j-1");
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                ExporterServers exporters = new ExporterServers("127.0.0.1", taken.getLocalPort(), () -> now, replay)) {
            ExporterServers.Ports p = exporters.serveReplay("h100-r09-n01");
            assertNotEquals(taken.getLocalPort(), p.dcgm());
            assertEquals(p, exporters.ports().get("h100-r09-n01"));
            HttpResponse<String> scrape = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + p.dcgm() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, scrape.statusCode());
            assertTrue(scrape.body().contains("DCGM_FI_DEV_GPU_TEMP{gpu=\"0\"} 91"), scrape.body());
            assertEquals(0, replay.pending("j-1"));
        }
    }
}
