package io.jobmon.sim.stack;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

/**
 * {@code ./jobmon replay --summary DIR [DIR...] [--max-differ 0]}: replays every bundle ({@code *.json}, in
 * sub-folders too) of the folders through the intake, at most {@code --parallel} (4) at a time, and prints one table — bundle, answer
 * key, the diagnosis through the intake, {@code /analyze} of the same bundle, time — then the shares. Exit 0 when
 * the intake and {@code /analyze} disagree (category or action) on at most {@code --max-differ} of the bundles (a
 * fraction, default 0: none), 3 when more do, 1 when a replay failed.
 */
public final class ReplaySummary {

    /** One row of the table; {@code error} set when the replay failed. */
    record Row(String bundle, String key, String intake, String analyze, long seconds, boolean same, String error) {
    }

    private ReplaySummary() {
    }

    /** @param dirs folders (walked for {@code *.json}) or bundle files */
    public static int run(Replayer replayer, List<Path> dirs, int parallel, double maxDiffer, PrintStream out)
            throws IOException {
        List<Path> files = new ArrayList<>();
        for (Path dir : dirs) {
            try (Stream<Path> s = Files.walk(dir)) {
                s.filter(p -> p.getFileName().toString().endsWith(".json")).sorted().forEach(files::add);
            }
        }
        if (files.isEmpty()) {
            out.println("replay: no *.json bundle under " + dirs);
            return 2;
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(parallel, files.size())));
        List<Future<Row>> runs = new ArrayList<>();
        for (Path f : files) {
            String label = f.getParent() == null ? f.toString()
                    : f.getParent().getFileName() + "/" + f.getFileName();
            runs.add(pool.submit(() -> row(replayer, label, f)));
        }
        List<Row> rows = new ArrayList<>();
        for (Future<Row> r : runs) {
            try {
                rows.add(r.get());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            } catch (ExecutionException e) {
                throw new IllegalStateException(e.getCause());
            }
        }
        pool.shutdown();
        print(rows, out);
        long failed = rows.stream().filter(r -> r.error() != null).count();
        long differ = rows.stream().filter(r -> r.error() == null && !r.same()).count();
        double share = (double) differ / rows.size();
        out.printf(Locale.ROOT, "%d bundles: intake = /analyze on %d, differ on %d (%.1f %%, allowed %.1f %%), failed %d%n",
                rows.size(), rows.size() - differ - failed, differ, 100 * share, 100 * maxDiffer, failed);
        return failed > 0 ? 1 : share > maxDiffer ? 3 : 0;
    }

    static Row row(Replayer replayer, String label, Path file) {
        long t0 = System.nanoTime();
        JsonNode bundle;
        try {
            bundle = StackClient.JSON.readTree(Files.readString(file));
        } catch (IOException e) {
            return new Row(label, "", "", "", 0, false, "not JSON: " + e.getMessage());
        }
        String key = answer(bundle.path("expect"));
        try {
            Replayer.Outcome o = replayer.replay(label, bundle, line -> { });
            return new Row(label, key, answer(o.intake()), answer(o.analyze()), o.total().toSeconds(), o.matches(), null);
        } catch (RuntimeException e) {
            return new Row(label, key, "", "", (System.nanoTime() - t0) / 1_000_000_000L, false, e.getMessage());
        }
    }

    private static String answer(JsonNode d) {
        return d == null || !d.hasNonNull("category") ? "" : d.path("category").asText() + "/" + d.path("action").asText();
    }

    static void print(List<Row> rows, PrintStream out) {
        int w = Math.max(6, rows.stream().mapToInt(r -> r.bundle().length()).max().orElse(6));
        String f = "%-" + w + "s  %-36s  %-36s  %-36s  %5s  %s%n";
        out.printf(Locale.ROOT, f, "bundle", "answer key", "intake", "/analyze", "s", "");
        for (Row r : rows) {
            out.printf(Locale.ROOT, f, r.bundle(), r.key(), r.intake(), r.analyze(), r.seconds(),
                    r.error() != null ? "FAILED: " + r.error() : r.same() ? "same" : "DIFFERS");
        }
    }
}
