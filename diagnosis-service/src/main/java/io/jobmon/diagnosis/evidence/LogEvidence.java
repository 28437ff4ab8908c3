package io.jobmon.diagnosis.evidence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.jobmon.diagnosis.config.DiagnosisConfig;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A task's log lines from log-service, all reads bounded: the window's last user lines and last system lines, the
 * job's last lines before it ended (when the window does not hold its end), and the first lines of each run keyword
 * over the whole run (each a keyword search log-service answers from its chunk filters). Lines read twice count
 * once (by their cursor); the result is in time order.
 */
final class LogEvidence {

    /** What was read: the lines, and how many came from each read. */
    record Result(ArrayNode lines, Map<String, Integer> read, String partial) {
    }

    private final LogServiceClient logs;
    private final DiagnosisConfig.Evidence config;
    private final ExecutorService calls;

    LogEvidence(LogServiceClient logs, DiagnosisConfig.Evidence config, ExecutorService calls) {
        this.logs = logs;
        this.config = config;
        this.calls = calls;
    }

    /** Fails (as the window's user read failed) when the window's lines could not be read at all. */
    Result read(String jobId, EvidencePlan plan, String auth) {
        String from = plan.windowFrom().toString();
        String to = plan.windowTo().toString();
        CompletableFuture<JsonNode> user = async(() -> logs.tail(jobId, "user", from, to, config.maxLogLines(), auth));
        CompletableFuture<JsonNode> system = async(() -> logs.tail(jobId, "system", from, to,
                config.maxSystemLines(), auth));
        CompletableFuture<JsonNode> end = plan.endTo() == null ? null
                : async(() -> logs.tail(jobId, null, null, plan.endTo().toString(), config.endLines(), auth));
        Map<String, CompletableFuture<JsonNode>> keywords = new LinkedHashMap<>();
        for (String k : config.runKeywords()) {
            keywords.put(k, async(() -> logs.search(jobId, k, plan.searchFrom().toString(), to,
                    config.runKeywordLines(), auth)));
        }
        Map<String, JsonNode> byCursor = new LinkedHashMap<>();
        Map<String, Integer> read = new LinkedHashMap<>();
        List<String> partial = new ArrayList<>();
        read.put("window", add(byCursor, user.join()));
        read.put("system", addOrNote(byCursor, system, "system lines", partial));
        if (end != null) {
            read.put("end", addOrNote(byCursor, end, "the last lines before the end", partial));
        }
        read.put("keywords", keywordLines(byCursor, keywords, partial));
        List<JsonNode> lines = new ArrayList<>(byCursor.values());
        lines.sort(Comparator.comparing(n -> n.path("time").asText("")));
        ArrayNode out = Json.array();
        for (JsonNode l : lines) {
            ((ObjectNode) l).remove("cursor");
            out.add(l);
        }
        read.put("lines", out.size());
        return new Result(out, read, partial.isEmpty() ? null : String.join("; ", partial));
    }

    private int keywordLines(Map<String, JsonNode> byCursor, Map<String, CompletableFuture<JsonNode>> keywords,
            List<String> partial) {
        try {
            CompletableFuture.allOf(keywords.values().toArray(CompletableFuture[]::new))
                    .get(config.runKeywordBudget().toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | java.util.concurrent.ExecutionException e) {
            // those that answered are used; the rest are named below
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        int n = 0;
        List<String> missed = new ArrayList<>();
        for (Map.Entry<String, CompletableFuture<JsonNode>> e : keywords.entrySet()) {
            CompletableFuture<JsonNode> f = e.getValue();
            if (f.isDone() && !f.isCompletedExceptionally()) {
                n += add(byCursor, f.join());
            } else {
                f.cancel(false);
                missed.add(e.getKey());
            }
        }
        if (!missed.isEmpty()) {
            partial.add("keyword searches over the run not answered: " + String.join(", ", missed));
        }
        return n;
    }

    private static int addOrNote(Map<String, JsonNode> byCursor, CompletableFuture<JsonNode> f, String what,
            List<String> partial) {
        try {
            return add(byCursor, f.join());
        } catch (RuntimeException e) {
            partial.add(what + " not read");
            return 0;
        }
    }

    /** Adds an answer's lines not seen yet; returns how many lines it had. */
    private static int add(Map<String, JsonNode> byCursor, JsonNode answer) {
        int n = 0;
        for (JsonNode raw : Json.items(answer, "items", "lines", "logs")) {
            ObjectNode line = SourceShapes.logLine(raw);
            if (line == null) {
                continue;
            }
            n++;
            String cursor = Json.text(raw, "cursor");
            String key = cursor != null ? cursor
                    : line.path("time").asText("") + "|" + line.path("pod").asText("") + "|" + line.path("line").asText();
            byCursor.putIfAbsent(key, line);
        }
        return n;
    }

    private CompletableFuture<JsonNode> async(java.util.function.Supplier<JsonNode> call) {
        return CompletableFuture.supplyAsync(call, calls);
    }
}
