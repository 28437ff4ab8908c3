package io.jobmon.diagnosis.engine;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Builds, for one reference catalogue row, the smallest bundle in which its {@code example} appears where its source
 * really shows it: a log line of a failed job's pod for messages, a container state for a container reason or an exit
 * code, an event for an event reason, an eviction or a scheduler message (a pending job for the latter), a dcgm
 * series showing the row's signal for a dcgm field, an Xid series for an Xid; a running job that advances for rows
 * that only inform (HEALTHY) and for progress lines.
 */
final class RowBundles {

    static final String START = "2026-07-13T10:00:00Z";
    static final String END = "2026-07-13T10:30:00Z";
    private static final Pattern STATE = Pattern.compile("(?i)\\bstate[=:]\\s*(\\w+)");
    private static final Pattern REASON = Pattern.compile("(?i)\\breason[=:]\\s*(\\w+)");
    private static final Pattern EXIT = Pattern.compile("(?i)\\b(?:exitCode[=:]\\s?|Exit Code:\\s*)(\\d+)");
    private static final Pattern MESSAGE = Pattern.compile("(?i)\\bmessage[=:]\\s*(.+)$");
    private static final Pattern EVENT = Pattern.compile("^([A-Z][A-Za-z]{2,60}): (.+)$");

    private RowBundles() {
    }

    /** Where the example of a row of this kind lives. */
    static String place(String kind) {
        return switch (kind) {
            case "k8s-container-reason", "exit-code" -> "container";
            case "k8s-event-reason", "kubelet-eviction" -> "event";
            case "scheduler-message" -> "pending-event";
            case "dcgm-field" -> "metric";
            case "progress-form" -> "progress";
            default -> "log";
        };
    }

    static ObjectNode forRow(ReferenceCatalogues.Row row) {
        if ("progress".equals(place(row.kind()))) {
            return progress(row.example());
        }
        if (row.category() == Category.HEALTHY) {
            return healthyWith(row);
        }
        boolean prestart = PatternCatalogue.defaults().category(row.category()).group() == CategoryGroup.PRESTART;
        return switch (place(row.kind())) {
            case "event" -> prestart ? pending(row) : event(failed(row, false, true), row,
                    "kubelet-eviction".equals(row.kind()) ? "Evicted" : null);
            case "container" -> row.informative() ? advancedUntilTheEnd(failed(row, false, false), container(row))
                    : failed(row, false, false).set("pods", pods("Failed", container(row)));
            case "pending-event" -> pending(row);
            case "metric" -> metric(failed(row, true, true), row);
            default -> failed(row, true, true);
        };
    }

    /** A FAILED job whose pod w-0 on gpu-1 exited 1, with (optionally) the example as its last log line. */
    private static ObjectNode failed(ReferenceCatalogues.Row row, boolean logExample, boolean exitOne) {
        ObjectNode b = job("FAILED");
        ObjectNode c = BundleBuilder.JSON.createObjectNode().put("name", "trainer").put("state", "terminated")
                .put("reason", "Error").put("exitCode", 1).put("restartCount", 0);
        b.set("pods", pods("Failed", exitOne ? c : null));
        ArrayNode logs = b.putArray("logs");
        log(logs, "2026-07-13T10:00:05Z", "starting worker 0 of 1");
        if (logExample && !"metric".equals(place(row.kind()))) {
            log(logs, "2026-07-13T10:29:50Z", row.example());
        }
        b.putArray("events");
        b.putArray("metrics");
        return b;
    }

    private static ObjectNode job(String status) {
        ObjectNode b = BundleBuilder.JSON.createObjectNode();
        ObjectNode j = b.putObject("job").put("id", "job-row-1").put("name", "row-job").put("status", status)
                .put("submittedAt", "2026-07-13T09:58:00Z").put("supportsRestart", true).put("retryCount", 0)
                .put("maxRetries", 3).put("gpuSpec", "8*A800");
        if (!"PENDING".equals(status)) {
            j.put("startedAt", START);
        }
        if ("FAILED".equals(status)) {
            j.put("finishedAt", END);
        }
        b.putObject("window").put("from", START).put("to", END);
        return b;
    }

    private static ArrayNode pods(String phase, ObjectNode container) {
        ArrayNode pods = BundleBuilder.JSON.createArrayNode();
        ObjectNode p = pods.addObject().put("name", "w-0").put("node", "gpu-1").put("phase", phase);
        ArrayNode cs = p.putArray("containers");
        if (container != null) {
            cs.add(container);
        }
        return pods;
    }

    /** The container state the example describes ({@code state=... reason=... exitCode=...} or kubectl's form). */
    private static ObjectNode container(ReferenceCatalogues.Row row) {
        String ex = row.example();
        ObjectNode c = BundleBuilder.JSON.createObjectNode().put("name", "trainer").put("restartCount", 0);
        Matcher st = STATE.matcher(ex);
        String state = st.find() ? st.group(1).toLowerCase(Locale.ROOT) : "terminated";
        c.put("state", state);
        Matcher r = REASON.matcher(ex);
        if (r.find()) {
            c.put("reason", r.group(1));
        } else if ("k8s-container-reason".equals(row.kind())) {
            c.put("reason", row.names().isEmpty() ? row.forms().get(0) : row.names().get(0));
        }
        Matcher e = EXIT.matcher(ex);
        if (e.find()) {
            c.put("exitCode", Integer.parseInt(e.group(1)));
        } else if ("exit-code".equals(row.kind())) {
            c.put("exitCode", Integer.parseInt(row.code().trim()));
        }
        Matcher m = MESSAGE.matcher(ex);
        if (m.find()) {
            c.put("message", m.group(1));
        }
        return c;
    }

    /** The example as an event ({@code Reason: message}, else the row's reason and the example as message). */
    private static ObjectNode event(ObjectNode b, ReferenceCatalogues.Row row, String defaultReason) {
        Matcher m = EVENT.matcher(row.example());
        String reason = m.matches() ? m.group(1) : defaultReason != null ? defaultReason
                : row.names().isEmpty() ? row.code() : row.names().get(0);
        String message = m.matches() ? m.group(2) : row.example();
        ((ArrayNode) b.get("events")).addObject().put("time", "2026-07-13T10:29:40Z").put("type", "Warning")
                .put("reason", reason).put("object", "Pod/w-0").put("message", message);
        return b;
    }

    /** A job still waiting: the scheduler's message as the event of its pending pod. */
    private static ObjectNode pending(ReferenceCatalogues.Row row) {
        ObjectNode b = job("PENDING");
        b.putObject("window").put("from", START).put("to", END);
        ArrayNode pods = BundleBuilder.JSON.createArrayNode();
        pods.addObject().put("name", "w-0").put("node", "").put("phase", "Pending").putArray("containers").addObject()
                .put("name", "trainer").put("state", "waiting").put("reason", "ContainerCreating").put("restartCount", 0);
        b.set("pods", pods);
        b.putArray("logs");
        b.putArray("metrics");
        b.putArray("events");
        Matcher m = EVENT.matcher(row.example());
        ((ArrayNode) b.get("events")).addObject().put("time", "2026-07-13T10:05:00Z").put("type", "Warning")
                .put("reason", m.matches() ? m.group(1) : "scheduler-message".equals(row.kind()) ? "FailedScheduling"
                        : row.names().isEmpty() ? row.code() : row.names().get(0)).put("object", "Pod/w-0")
                .put("message", m.matches() ? m.group(2) : row.example());
        return b;
    }

    /**
     * A failed job that advanced until its end, with the container state: for a row that decides nothing, the rest
     * of the bundle must not decide either (a job silent for 30 minutes before it ended is a hang).
     */
    private static ObjectNode advancedUntilTheEnd(ObjectNode b, ObjectNode container) {
        b.set("pods", pods("Failed", container));
        ArrayNode logs = (ArrayNode) b.get("logs");
        Instant t = Instant.parse(START);
        for (int i = 1; i <= 58; i++) {
            int step = 30 * i;
            log(logs, t.plusSeconds(30L * i).toString(), "Training:  " + (step / 40) + "%|###       | " + step
                    + "/4000 [" + clock(30 * i) + "<40:00,  1.00it/s]");
        }
        return b;
    }

    /** The row's field on GPU 0 of gpu-1: normal for 20 minutes, then showing its signal. */
    private static ObjectNode metric(ObjectNode b, ReferenceCatalogues.Row row) {
        String signal = row.signal();
        double normal = signal.startsWith("gauge-above:") ? Double.parseDouble(signal.substring(12)) - 10 : 0;
        double fault = signal.startsWith("gauge-above:") ? normal + 15 : signal.equals("bitmask") ? 8 : 1;
        ArrayNode samples = series(b, row.names().get(0));
        Instant t = Instant.parse(START);
        for (int i = 0; i <= 120; i++) {
            double v = i < 80 ? normal : signal.equals("counter-increase") ? fault * (i - 79) * 7 : fault;
            samples.addArray().add(t.plusSeconds(15L * i).toString()).add(v);
        }
        return b;
    }

    /** An Xid series on GPU 0 of gpu-1: the code appears at 10:20. */
    static ObjectNode xidSeries(ReferenceCatalogues.Row row) {
        ObjectNode b = failed(row, false, true);
        ArrayNode samples = series(b, "DCGM_FI_DEV_XID_ERRORS");
        Instant t = Instant.parse(START);
        for (int i = 0; i <= 120; i++) {
            samples.addArray().add(t.plusSeconds(15L * i).toString()).add(i < 80 ? 0 : Integer.parseInt(row.code().trim()));
        }
        return b;
    }

    private static ArrayNode series(ObjectNode b, String name) {
        ObjectNode m = ((ArrayNode) b.get("metrics")).addObject().put("name", name);
        m.putObject("labels").put("Hostname", "gpu-1").put("gpu", "0").put("pod", "w-0");
        return m.putArray("samples");
    }

    /** A running job that advanced steadily for 30 minutes, the (informative) example printed half way. */
    private static ObjectNode healthyWith(ReferenceCatalogues.Row row) {
        ObjectNode b = running();
        ArrayNode logs = (ArrayNode) b.get("logs");
        Instant t = Instant.parse(START);
        for (int i = 0; i <= 60; i++) {
            String time = t.plusSeconds(30L * i).toString();
            int step = 100 + 30 * i;
            log(logs, time, "Training:  " + (step / 40) + "%|###       | " + step + "/4000 [" + clock(30 * i + 100) + "<40:00,  1.00it/s]");
            if (i == 30 && !"metric".equals(place(row.kind()))) {
                log(logs, time, row.example());
            }
        }
        if ("metric".equals(place(row.kind()))) {
            ArrayNode samples = series(b, row.names().get(0));
            for (int i = 0; i <= 120; i++) {
                samples.addArray().add(t.plusSeconds(15L * i).toString()).add(0);
            }
        }
        return b;
    }

    /** A running job printing the progress example 31 times, its step advancing 20 a line, every 30 s. */
    static ObjectNode progress(String example) {
        ObjectNode b = running();
        ArrayNode logs = (ArrayNode) b.get("logs");
        ProgressPoint p = ProgressParser.parseLine(example, Instant.parse(START), "w-0", 0);
        long step = p == null ? 0 : (long) p.step();
        Instant t = Instant.parse(START);
        for (int i = 0; i <= 60; i++) {
            String line = example.replaceFirst("(?<![\\d.])" + step + "(?![\\d.])", String.valueOf(step + 20L * i));
            log(logs, t.plusSeconds(30L * i).toString(), line);
        }
        return b;
    }

    private static ObjectNode running() {
        ObjectNode b = job("RUNNING");
        b.set("pods", pods("Running", BundleBuilder.JSON.createObjectNode().put("name", "trainer")
                .put("state", "running").put("restartCount", 0)));
        b.putArray("logs");
        b.putArray("events");
        b.putArray("metrics");
        return b;
    }

    private static void log(ArrayNode logs, String time, String line) {
        logs.addObject().put("time", time).put("pod", "w-0").put("container", "trainer").put("stream", "user")
                .put("line", line);
    }

    private static String clock(int seconds) {
        return String.format(Locale.ROOT, "%02d:%02d", seconds / 60, seconds % 60);
    }
}
