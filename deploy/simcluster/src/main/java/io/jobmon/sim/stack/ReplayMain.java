package io.jobmon.sim.stack;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * {@code ./jobmon replay BUNDLE.json...}: each bundle becomes a job on the sim (see {@link Replayer}), its diagnosis
 * through the intake is printed beside the analysis of the bundle itself. Several bundles are replayed at once, as
 * separate jobs. Exit 0 when every diagnosis through the intake has the category and action of its analysis, 3 when
 * one differs, 1 when a replay failed. With {@code --summary DIR}: every bundle of a folder, one table
 * ({@link ReplaySummary}).
 */
public final class ReplayMain {

    private ReplayMain() {
    }

    public static void main(String[] args) throws Exception {
        Locale.setDefault(Locale.ROOT);
        StackOptions.Parsed p = StackOptions.parse(args);
        String summary = p.flags().get("summary");
        if (p.rest().isEmpty() && summary == null) {
            System.err.println("usage: ./jobmon replay [--user alice] [--project project-nlp] [--timeout 300] BUNDLE.json...\n"
                    + "       ./jobmon replay --summary DIR [DIR...] [--max-differ 0] [--parallel 4]");
            System.exit(2);
        }
        String user = p.flags().getOrDefault("user", "alice");
        Replayer replayer = new Replayer(new StackClient(p.options()), user,
                p.flags().getOrDefault("project", "project-nlp"),
                Duration.ofSeconds(Long.parseLong(p.flags().getOrDefault("timeout", "300"))));
        if (summary != null) {
            List<Path> dirs = new ArrayList<>(List.of(Path.of(summary)));
            p.rest().forEach(r -> dirs.add(Path.of(r)));
            System.exit(ReplaySummary.run(replayer, dirs,
                    Integer.parseInt(p.flags().getOrDefault("parallel", "4")),
                    Double.parseDouble(p.flags().getOrDefault("max-differ", "0")), System.out));
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(8, p.rest().size()));
        List<Future<Replayer.Outcome>> runs = new ArrayList<>();
        for (String file : p.rest()) {
            JsonNode bundle;
            try {
                bundle = StackClient.JSON.readTree(Files.readString(Path.of(file)));
            } catch (IOException e) {
                System.err.println("replay: cannot read " + file + " as JSON: " + e.getMessage());
                System.exit(2);
                return;
            }
            String label = Path.of(file).getFileName().toString();
            runs.add(pool.submit(() -> replayer.replay(label, bundle, line -> System.out.println("  " + line))));
        }
        int exit = 0;
        for (Future<Replayer.Outcome> run : runs) {
            try {
                Replayer.Outcome o = run.get();
                print(o, user, p.options());
                exit = Math.max(exit, o.matches() ? 0 : 3);
            } catch (java.util.concurrent.ExecutionException e) {
                System.out.println("\nreplay failed: " + e.getCause().getMessage());
                exit = exit == 0 ? 1 : exit;
            }
        }
        pool.shutdown();
        System.exit(exit);
    }

    static void print(Replayer.Outcome o, String user, StackOptions s) {
        StringBuilder b = new StringBuilder("\n== ").append(o.label()).append(": job ").append(o.jobId()).append(" (")
                .append(o.job().path("status").asText()).append(o.job().hasNonNull("reason")
                        ? ", " + o.job().get("reason").asText() : "")
                .append("), ingested in ").append(o.ingest().toSeconds()).append(" s, all in ").append(o.total().toSeconds())
                .append(" s\n");
        JsonNode d = o.intake();
        b.append("diagnosis through the intake (").append(o.diagnosisId()).append("): ").append(d.path("category").asText())
                .append(", action ").append(d.path("action").asText()).append(", confidence ")
                .append(d.path("confidence").asText()).append('\n');
        b.append("  ").append(d.path("summary").asText()).append('\n');
        for (JsonNode e : d.path("evidence")) {
            String text = e.path("text").asText();
            b.append("  - [").append(e.path("source").asText()).append(e.hasNonNull("time") ? " " + e.get("time").asText() : "")
                    .append("] ").append(text.length() > 200 ? text.substring(0, 200) + "…" : text).append('\n');
        }
        b.append("  suggestion: ").append(d.path("suggestion").asText()).append('\n');
        JsonNode a = o.analyze();
        b.append("analyze of the same bundle: ").append(a.path("category").asText()).append(", action ")
                .append(a.path("action").asText()).append(", confidence ").append(a.path("confidence").asText())
                .append(o.matches() ? "  -> same category and action\n" : "  -> DIFFERS\n");
        if (o.expect() != null && o.expect().hasNonNull("category")) {
            b.append("the bundle's answer key: ").append(o.expect().path("category").asText()).append(" / ")
                    .append(o.expect().path("action").asText()).append('\n');
        }
        b.append("look: TOKEN=$(./jobmon token ").append(user).append("); curl -s -H \"Authorization: Bearer $TOKEN\" ")
                .append(s.gateway()).append("/api/v1/jobs/").append(o.jobId()).append("[/events|/logs|/metrics|/diagnoses]\n");
        System.out.print(b);
    }
}
