package io.jobmon.sim.stack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * {@code ./jobmon replay}: a diagnosis evidence bundle becomes a job on the sim cluster whose pods, events, logs and
 * metrics reach jobmon through its real intake, then the job's diagnosis is asked through the gateway and set beside
 * {@code POST /api/v1/diagnoses/analyze} of the same bundle.
 *
 * <ol>
 *   <li>submit a job through the gateway like the bundle's (name, pods, GPUs, restart settings) with the label
 *       {@code jobmon.io/sim-scenario=replay}: job-service creates its Job on the sim, which makes no pods for it;</li>
 *   <li>{@code POST /replay} on the sim's admin API: the bundle's pods, events, log lines and metric series are played
 *       on that Job, times shifted so that the bundle's window ends now;</li>
 *   <li>wait until event-ingest, log-service and metrics-service show them (every scraped sample, counts steady);</li>
 *   <li>ask the job's diagnosis for the bundle's window ({@code POST /api/v1/jobs/{id}/diagnoses}, at most the last
 *       30 minutes of it, with the bundle's hint) and wait for it;</li>
 *   <li>analyze the bundle itself and compare category and action.</li>
 * </ol>
 */
public final class Replayer {

    /** What one replay gave. {@code intake} and {@code analyze} are diagnosis results (category, action, ...). */
    public record Outcome(String label, String jobId, JsonNode played, JsonNode job, String diagnosisId, JsonNode intake,
            JsonNode analyze, JsonNode expect, Duration ingest, Duration total) {

        /** Same category and same action both ways. */
        public boolean matches() {
            return Objects.equals(intake.path("category").asText(), analyze.path("category").asText())
                    && Objects.equals(intake.path("action").asText(), analyze.path("action").asText());
        }
    }

    /** The diagnosis service's longest task window (jobmon.diagnosis.tasks.max-window). */
    static final Duration MAX_WINDOW = Duration.ofMinutes(30);

    private final StackClient stack;
    private final String user;
    private final String project;
    private final Duration timeout;

    public Replayer(StackClient stack, String user, String project, Duration timeout) {
        this.stack = stack;
        this.user = user;
        this.project = project;
        this.timeout = timeout;
    }

    /** Replays a bundle (its answer key {@code expect}, if any, is kept aside); {@code say} gets progress lines. */
    public Outcome replay(String label, JsonNode original, Consumer<String> say) {
        long t0 = System.nanoTime();
        ObjectNode bundle = original.deepCopy();
        JsonNode expect = bundle.remove("expect");
        String jobId = submit(bundle);
        say.accept(label + ": job " + jobId + " submitted to cluster " + stack.options().cluster());
        waitFor("job-service's Job " + jobId + " on the sim",
                () -> stack.kube("/apis/batch/v1/namespaces/" + stack.options().namespace() + "/jobs/" + jobId).ok());
        JsonNode played = stack.simAdmin("POST", "/replay?job=" + jobId + "&namespace=" + stack.options().namespace(),
                bundle.toString()).require("replay of " + label);
        say.accept(label + ": played " + played.path("pods").size() + " pod(s), " + played.path("events").asInt()
                + " events, " + played.path("logLines").asInt() + " log lines, " + played.path("series").asInt()
                + " series (" + played.path("samples").asInt() + " samples)");
        Duration shift = Duration.ofSeconds(played.path("shiftSeconds").asLong());
        long t1 = System.nanoTime();
        JsonNode job = awaitIngested(jobId, bundle, played, shift);
        Duration ingest = Duration.ofNanos(System.nanoTime() - t1);
        say.accept(label + ": ingested in " + ingest.toSeconds() + " s; job " + job.path("status").asText()
                + (job.hasNonNull("reason") ? " (" + job.get("reason").asText() + ")" : ""));
        JsonNode task = diagnose(jobId, bundle, shift);
        JsonNode analyze = stack.post(user, "/api/v1/diagnoses/analyze", bundle).require("analyze of " + label);
        return new Outcome(label, jobId, played, job, task.path("id").asText(), task.path("result"), analyze, expect,
                ingest, Duration.ofNanos(System.nanoTime() - t0));
    }

    private String submit(JsonNode bundle) {
        JsonNode j = bundle.path("job");
        int pods = Math.max(1, bundle.path("pods").size());
        Map<String, Object> spec = new LinkedHashMap<>();
        String name = j.path("name").asText("replay").replaceAll("[^\\p{L}\\p{N} ._-]", "-");
        spec.put("name", name.isEmpty() ? "replay" : name);
        spec.put("project", project);
        spec.put("cluster", stack.options().cluster());
        // No queue: the bundle's comes from another platform; the sim cluster's default pool takes the job.
        spec.put("image", "registry.local/replay/" + name.toLowerCase().replaceAll("[^a-z0-9._-]", "-") + ":1");
        spec.put("replicas", pods);
        GpuSpec gpus = GpuSpec.parse(j.path("gpuSpec").asText(""));
        if (gpus.count() > 0) {
            spec.put("resources", Map.of("gpuType", gpus.type(), "gpusPerReplica", Math.max(1, gpus.count() / pods)));
        }
        spec.put("supportsRestart", j.path("supportsRestart").asBoolean(false));
        spec.put("maxRetries", Math.min(10, j.path("maxRetries").asInt(0)));
        spec.put("autoFaultHandling", false);
        spec.put("labels", Map.of("jobmon.io/sim-scenario", "replay"));
        spec.put("tags", List.of("replay"));
        return stack.post(user, "/api/v1/jobs", spec).require("submission").path("id").asText();
    }

    /**
     * Until every section shows what was played (pods known to job-service, the user lines in log-service, events if
     * any, every metric sample scraped and charted) and the counts and the job's status stay the same for two polls.
     */
    private JsonNode awaitIngested(String jobId, JsonNode bundle, JsonNode played, Duration shift) {
        int pods = played.path("pods").size();
        long userLines = 0;
        for (JsonNode l : bundle.path("logs")) {
            userLines += "system".equals(l.path("stream").asText()) ? 0 : 1;
        }
        boolean events = played.path("events").asInt() > 0;
        String since = earliest(bundle, shift).toString();
        Instant lastSample = lastSample(bundle, shift);
        String charts = lastSample == null ? null : chartQuery(bundle, lastSample.minus(Duration.ofMinutes(5)));
        int[] steadyPolls = {0};
        long minLines = userLines;
        String[] last = {null};
        JsonNode[] job = {null};
        waitFor("the replay of " + jobId + " to be ingested", () -> {
            job[0] = stack.get(user, "/api/v1/jobs/" + jobId).require("job " + jobId);
            // Each service learns of the job from jobmon.job.changes on its own: until then it answers 404.
            JsonNode podList = known(stack.get(user, "/api/v1/jobs/" + jobId + "/pods?limit=500"), "pods");
            JsonNode eventList = known(stack.get(user, "/api/v1/jobs/" + jobId + "/events?limit=500&from=" + since), "events");
            JsonNode count = known(stack.get(user, "/api/v1/jobs/" + jobId + "/logs/count?from=" + since), "log count");
            if (podList == null || eventList == null || count == null) {
                return false;
            }
            int podsSeen = podList.path("items").size();
            int eventsSeen = eventList.path("items").size();
            long lines = count.path("lines").asLong();
            int pending = stack.simAdmin("GET", "/replay/pending?job=" + jobId, null).require("pending samples")
                    .path("pendingSamples").asInt();
            // job-service learns a job's pods from event-ingest's status changes only: pods that appear or change
            // while the job's status stays the same (the second pod of a running gang) may never reach it.
            // A scraped sample reaches the chart through Kafka and metrics-service's batch writer: the diagnosis is
            // asked once the job's chart shows the bundle's last sample time, or (series that are not the job's: no
            // pod label, another node) after everything else has stood still for 30 s.
            Instant[] latest = {null};
            long points = charts == null ? 0 : chartPoints(stack.get(user, "/api/v1/jobs/" + jobId + "/metrics?" + charts)
                    .require("metrics"), latest);
            boolean complete = podsSeen >= Math.min(pods, 1) && lines >= minLines && (!events || eventsSeen > 0)
                    && pending == 0;
            String now = podsSeen + "/" + eventsSeen + "/" + lines + "/" + points + "/" + job[0].path("status").asText()
                    + "/" + job[0].path("reason").asText();
            boolean steady = now.equals(last[0]);
            last[0] = now;
            steadyPolls[0] = complete && steady ? steadyPolls[0] + 1 : 0;
            boolean metricsIn = charts == null || latest[0] != null && !latest[0].isBefore(lastSample.minusSeconds(30))
                    || steadyPolls[0] >= 10;
            return complete && steady && metricsIn;
        });
        return job[0];
    }

    /**
     * The chart query (metric names, from {@code from} on, 15 s step, per GPU or node) for the catalogue's metrics
     * that the bundle's series feed, or null when it has none.
     */
    private String chartQuery(JsonNode bundle, Instant from) {
        java.util.Set<String> played = new java.util.HashSet<>();
        bundle.path("metrics").forEach(m -> played.add(m.path("name").asText()));
        StringBuilder q = new StringBuilder();
        if (!played.isEmpty()) {
            for (JsonNode item : stack.get(user, "/api/v1/metrics/catalogue").require("metric catalogue")
                    .path("items")) {
                for (JsonNode source : item.path("series")) {
                    if (played.contains(source.asText())) {
                        q.append("metric=").append(item.path("name").asText()).append('&');
                        break;
                    }
                }
            }
        }
        return q.isEmpty() ? null : q + "from=" + from + "&to=" + from.plus(Duration.ofMinutes(6)) + "&step=15s&groupBy=gpu";
    }

    /** The time of the bundle's last metric sample, shifted; null when it has none. */
    static Instant lastSample(JsonNode bundle, Duration shift) {
        Instant max = null;
        for (JsonNode m : bundle.path("metrics")) {
            for (JsonNode sample : m.path("samples")) {
                Instant t = Instant.parse(sample.path(0).asText());
                max = max == null || t.isAfter(max) ? t : max;
            }
        }
        return max == null ? null : max.plus(shift);
    }

    /** The chart's number of points; {@code latest[0]} gets the time of its latest. */
    static long chartPoints(JsonNode chart, Instant[] latest) {
        long n = 0;
        for (JsonNode series : chart.path("series")) {
            for (JsonNode point : series.path("points")) {
                n++;
                Instant t = point.path(0).isNumber() ? Instant.ofEpochMilli(point.path(0).asLong())
                        : Instant.parse(point.path(0).asText());
                latest[0] = latest[0] == null || t.isAfter(latest[0]) ? t : latest[0];
            }
        }
        return n;
    }

    /** The answer's body, or null for a 404 (the service does not know the job yet). */
    private static JsonNode known(StackClient.Answer a, String what) {
        return a.status() == 404 ? null : a.require(what);
    }

    /** The earliest time the bundle names, shifted, less a minute. */
    static Instant earliest(JsonNode bundle, Duration shift) {
        Instant min = null;
        for (String p : List.of("/window/from", "/job/submittedAt")) {
            min = min(min, bundle.at(p).asText(null));
        }
        for (JsonNode l : bundle.path("logs")) {
            min = min(min, l.path("time").asText(null));
        }
        for (JsonNode e : bundle.path("events")) {
            min = min(min, e.path("time").asText(null));
        }
        return (min == null ? Instant.now().minus(shift) : min).plus(shift).minusSeconds(60);
    }

    private static Instant min(Instant a, String time) {
        if (time == null || time.isEmpty()) {
            return a;
        }
        Instant t = Instant.parse(time);
        return a == null || t.isBefore(a) ? t : a;
    }

    /** Asks the job's diagnosis for the bundle's window (its last 30 minutes at most) and waits for it. */
    private JsonNode diagnose(String jobId, JsonNode bundle, Duration shift) {
        Map<String, Object> ask = new LinkedHashMap<>();
        if (bundle.at("/window/to").isTextual()) {
            Instant to = Instant.parse(bundle.at("/window/to").asText()).plus(shift);
            Instant from = bundle.at("/window/from").isTextual()
                    ? Instant.parse(bundle.at("/window/from").asText()).plus(shift) : to.minus(MAX_WINDOW);
            if (from.isBefore(to.minus(MAX_WINDOW))) {
                from = to.minus(MAX_WINDOW);
            }
            ask.put("from", from.toString());
            ask.put("to", to.toString());
        }
        if (bundle.hasNonNull("hint")) {
            ask.put("hint", bundle.get("hint").asText());
        }
        StackClient.Answer[] asked = {null};
        waitFor("diagnosis-service to know job " + jobId, () -> {
            asked[0] = stack.post(user, "/api/v1/jobs/" + jobId + "/diagnoses", ask);
            return asked[0].status() != 404;
        });
        String id = asked[0].require("diagnosis of " + jobId).path("id").asText();
        JsonNode[] task = {null};
        waitFor("diagnosis " + id, () -> {
            task[0] = stack.get(user, "/api/v1/diagnoses/" + id).require("diagnosis " + id);
            String status = task[0].path("status").asText();
            if ("FAILED".equals(status)) {
                throw new IllegalStateException("diagnosis " + id + " failed: " + task[0]);
            }
            return "DONE".equals(status);
        });
        return task[0];
    }

    private void waitFor(String what, java.util.function.BooleanSupplier done) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("gave up waiting for " + what + " after " + timeout.toSeconds() + " s");
            }
            try {
                Thread.sleep(3000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + what, e);
            }
        }
    }
}
