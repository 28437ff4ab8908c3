package io.jobmon.diagnosis.bench;

import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.jobmon.testsupport.Tokens;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * job-service, event-ingest and metrics-service as their answers look for one 8-GPU job of 3 days (their own answer
 * forms, at realistic sizes: the run-long metrics read is 10 metrics × 8 GPUs × 4,320 one-minute points), served by
 * WireMock; and the service account's token endpoint.
 */
final class SourceAnswers {

    static final List<String> METRICS = List.of("gpu_util", "gpu_mem_used", "gpu_temp", "gpu_power", "sm_active",
            "tensor_active", "sm_clock", "xid", "ecc_dbe", "throttle_reasons");

    private SourceAnswers() {
    }

    static void serve(WireMockServer wm, String job, int pods, Instant started, Instant finished) {
        String base = "/api/v1/jobs/" + job;
        wm.stubFor(post(urlPathEqualTo("/token")).withRequestBody(containing("grant_type=client_credentials"))
                .willReturn(okJson("{\"access_token\":\"" + Tokens.service() + "\",\"token_type\":\"Bearer\","
                        + "\"expires_in\":3600}")));
        wm.stubFor(get(urlPathEqualTo(base)).willReturn(okJson("{\"id\":\"" + job + "\",\"name\":\"llama-sft\","
                + "\"owner\":\"alice\",\"tenant\":\"t1\",\"status\":\"FAILED\",\"reason\":\"Error\",\"message\":\"container "
                + "trainer exited with 1\",\"exitCode\":1,\"gpu\":\"A800\",\"gpuCount\":" + pods + ",\"submittedAt\":\""
                + started.minusSeconds(120) + "\",\"startedAt\":\"" + started + "\",\"finishedAt\":\"" + finished
                + "\",\"retry\":{\"attempt\":1,\"supportsRestart\":true,\"autoFaultHandling\":false,\"maxRetries\":3,"
                + "\"retriesUsed\":0}}")));
        wm.stubFor(get(urlPathEqualTo(base + "/attempts")).willReturn(okJson("{\"rootId\":\"" + job + "\","
                + "\"supportsRestart\":true,\"autoFaultHandling\":false,\"maxRetries\":3,\"retriesUsed\":0,"
                + "\"retriesLeft\":3,\"attempts\":[],\"commands\":[]}")));
        StringBuilder podList = new StringBuilder();
        for (int p = 0; p < pods; p++) {
            podList.append(p == 0 ? "" : ",").append("{\"name\":\"").append(pod(p)).append("\",\"namespace\":\"team-nlp\","
                    + "\"node\":\"").append(node(p)).append("\",\"phase\":\"Failed\",\"containers\":[{\"name\":\"trainer\","
                    + "\"state\":\"terminated\",\"reason\":\"Error\",\"exitCode\":1,\"restartCount\":0}]}");
        }
        wm.stubFor(get(urlPathEqualTo(base + "/pods")).willReturn(okJson("{\"items\":[" + podList + "],\"nextCursor\":null}")));
        StringBuilder events = new StringBuilder();
        for (int i = 0; i < 60; i++) {
            Instant t = finished.minus(Duration.ofMinutes(29)).plusSeconds(29L * i);
            events.append(i == 0 ? "" : ",").append("{\"time\":\"").append(t).append("\",\"type\":\"Normal\",\"reason\":")
                    .append("\"Pulled\",\"message\":\"Container image already present on machine\",\"count\":1,\"pod\":\"")
                    .append(pod(i % pods)).append("\",\"object\":{\"kind\":\"Pod\",\"name\":\"").append(pod(i % pods))
                    .append("\"}}");
        }
        wm.stubFor(get(urlPathEqualTo(base + "/events")).willReturn(okJson("{\"items\":[" + events + "],\"nextCursor\":null}")));
        Instant windowFrom = finished.plusSeconds(60).minus(Duration.ofMinutes(30));
        wm.stubFor(get(urlPathEqualTo(base + "/metrics")).withQueryParam("step", absent())
                .willReturn(okJson(series(windowFrom, finished.plusSeconds(60), 15, pods))));
        wm.stubFor(get(urlPathEqualTo(base + "/metrics")).withQueryParam("step", equalTo("60"))
                .willReturn(okJson(series(started, windowFrom, 60, pods))));
    }

    /** metrics-service's answer: one series per metric and GPU ({@code groupBy=gpu}), a point per step. */
    static String series(Instant from, Instant to, int stepSeconds, int gpus) {
        SplittableRandom rnd = new SplittableRandom(7);
        StringBuilder b = new StringBuilder(64 << 20).append("{\"stepSeconds\":").append(stepSeconds).append(",\"series\":[");
        boolean first = true;
        for (String m : METRICS) {
            if ("xid".equals(m)) {
                continue; // no Xid events: metrics-service has no series for them
            }
            for (int g = 0; g < gpus; g++) {
                b.append(first ? "" : ",").append("{\"metric\":\"").append(m).append("\",\"group\":{\"node\":\"")
                        .append(node(g)).append("\",\"gpu\":\"").append(g % 8).append("\"},\"points\":[");
                first = false;
                boolean firstPoint = true;
                for (Instant t = from; t.isBefore(to); t = t.plusSeconds(stepSeconds)) {
                    b.append(firstPoint ? "" : ",").append("[\"").append(t).append("\",")
                            .append(String.format(Locale.ROOT, "%.1f", value(m, rnd))).append(']');
                    firstPoint = false;
                }
                b.append("]}");
            }
        }
        return b.append("]}").toString();
    }

    private static double value(String m, SplittableRandom rnd) {
        return switch (m) {
            case "gpu_util" -> 90 + rnd.nextInt(10);
            case "gpu_mem_used" -> 70000 + rnd.nextInt(2000);
            case "gpu_temp" -> 60 + rnd.nextInt(8);
            case "gpu_power" -> 350 + rnd.nextInt(40);
            case "sm_active", "tensor_active" -> 0.6 + rnd.nextDouble() * 0.3;
            case "sm_clock" -> 1410;
            default -> 0;
        };
    }

    static String pod(int p) {
        return "llama-sft-worker-" + p;
    }

    static String node(int p) {
        return "gpu-node-" + String.format("%02d", p / 8);
    }
}
