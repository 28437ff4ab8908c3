package io.jobmon.diagnosis.engine;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.List;

/** Fluent builder of small evidence bundles (as JSON, like the REST layer receives them) for tests. */
final class BundleBuilder {

    static final ObjectMapper JSON = new ObjectMapper();

    private final ObjectNode root = JSON.createObjectNode();

    static BundleBuilder job(String status) {
        BundleBuilder b = new BundleBuilder();
        b.root.putObject("job").put("id", "job-test-1").put("name", "test-job").put("status", status)
                .put("supportsRestart", true).put("retryCount", 0).put("maxRetries", 3);
        return b;
    }

    BundleBuilder jobTime(String field, String time) {
        ((ObjectNode) root.get("job")).put(field, time);
        return this;
    }

    BundleBuilder window(String from, String to) {
        root.putObject("window").put("from", from).put("to", to);
        return this;
    }

    BundleBuilder hint(String hint) {
        root.put("hint", hint);
        return this;
    }

    /** Adds a pod with one container; {@code exitCode} may be null. */
    BundleBuilder pod(String name, String node, String phase, String state, String reason, Integer exitCode, int restarts) {
        ObjectNode p = array("pods").addObject().put("name", name).put("node", node).put("phase", phase);
        ObjectNode c = p.putArray("containers").addObject().put("name", "trainer").put("state", state)
                .put("restartCount", restarts);
        if (reason != null) {
            c.put("reason", reason);
        }
        if (exitCode != null) {
            c.put("exitCode", exitCode);
        }
        return this;
    }

    BundleBuilder event(String time, String type, String reason, String object, String message) {
        array("events").addObject().put("time", time).put("type", type).put("reason", reason).put("object", object)
                .put("message", message);
        return this;
    }

    BundleBuilder log(String time, String pod, String line) {
        return log(time, pod, "user", line);
    }

    BundleBuilder log(String time, String pod, String stream, String line) {
        array("logs").addObject().put("time", time).put("pod", pod).put("container", "trainer").put("stream", stream)
                .put("line", line);
        return this;
    }

    /** Adds {@code lines} one every {@code everySeconds} from {@code start}. */
    BundleBuilder logs(String start, int everySeconds, String pod, List<String> lines) {
        Instant t = Instant.parse(start);
        for (String l : lines) {
            log(t.toString(), pod, l);
            t = t.plusSeconds(everySeconds);
        }
        return this;
    }

    /** A metric series with samples every 15 s from {@code start}. */
    BundleBuilder metric(String name, String host, String gpu, String pod, String start, double... values) {
        ObjectNode m = array("metrics").addObject().put("name", name);
        m.putObject("labels").put("Hostname", host).put("gpu", gpu).put("pod", pod);
        ArrayNode samples = m.putArray("samples");
        Instant t = Instant.parse(start);
        for (double v : values) {
            samples.addArray().add(t.toString()).add(v);
            t = t.plusSeconds(15);
        }
        return this;
    }

    ObjectNode json() {
        return root;
    }

    EvidenceBundle build() {
        return EvidenceBundle.fromJson(root);
    }

    private ArrayNode array(String key) {
        return root.has(key) ? (ArrayNode) root.get(key) : root.putArray(key);
    }

    /** {@code n} copies of {@code v} followed by the other values. */
    static double[] repeat(double v, int n, double... then) {
        double[] out = new double[n + then.length];
        java.util.Arrays.fill(out, 0, n, v);
        System.arraycopy(then, 0, out, n, then.length);
        return out;
    }

    /** {@code n} values alternating around {@code mean} by +-{@code jitter}. */
    static double[] steady(double mean, double jitter, int n) {
        double[] out = new double[n];
        for (int i = 0; i < n; i++) {
            out[i] = mean + (i % 3 - 1) * jitter;
        }
        return out;
    }

    static double[] concat(double[]... parts) {
        int n = 0;
        for (double[] p : parts) {
            n += p.length;
        }
        double[] out = new double[n];
        int i = 0;
        for (double[] p : parts) {
            System.arraycopy(p, 0, out, i, p.length);
            i += p.length;
        }
        return out;
    }

    /**
     * tqdm lines: steps advance by {@code stepsPerLine} every {@code secondsPerLine}; elapsed starts at
     * {@code elapsed0}; the printed rate is step/elapsed like a bar resumed with {@code initial=}.
     */
    static List<String> tqdm(int startStep, int total, int stepsPerLine, int secondsPerLine, int elapsed0, int lines) {
        java.util.List<String> out = new java.util.ArrayList<>();
        for (int i = 0; i < lines; i++) {
            int step = startStep + i * stepsPerLine;
            int elapsed = elapsed0 + i * secondsPerLine;
            double avg = step / (double) Math.max(1, elapsed);
            String rate = avg >= 1 ? String.format(java.util.Locale.ROOT, "%.2fit/s", avg)
                    : String.format(java.util.Locale.ROOT, "%.2fs/it", 1 / avg);
            out.add(String.format(java.util.Locale.ROOT, "%3d%%|#####     | %d/%d [%s<10:00, %s]",
                    step * 100 / total, step, total, clock(elapsed), rate));
        }
        return out;
    }

    static String clock(int seconds) {
        return seconds >= 3600
                ? String.format(java.util.Locale.ROOT, "%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
                : String.format(java.util.Locale.ROOT, "%02d:%02d", seconds / 60, seconds % 60);
    }
}
