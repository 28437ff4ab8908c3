package io.jobmon.logs.query;

import io.jobmon.logs.chunk.ChunkCodec;
import io.jobmon.logs.chunk.ChunkData;
import io.jobmon.logs.chunk.ChunkRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;

/**
 * Counts a selection's lines (a search's matches) over all its chunks: the index skips chunks whose filter rules the
 * keyword out, the rest are fetched a group at a time and decoded and searched in parallel.
 */
public final class Counter {

    /** The count, and how many chunks were read out of how many the scope and time range hold. */
    public record Count(long lines, int chunksRead) {
    }

    private static final int GROUP = 16;

    private final ChunkQueries queries;
    private final ExecutorService pool;

    public Counter(ChunkQueries queries, ExecutorService pool) {
        this.queries = queries;
        this.pool = pool;
    }

    public Count count(Scope scope, long from, long to, LineMatcher matcher) {
        long total = 0;
        int read = 0;
        long afterKey = Long.MIN_VALUE;
        long afterId = Long.MIN_VALUE;
        while (true) {
            List<ChunkMeta> metas = queries.metas(scope, from, to, matcher == null ? null : matcher.hashes(), true,
                    afterKey, afterId, 500);
            List<List<ChunkMeta>> groups = new ArrayList<>();
            for (int i = 0; i < metas.size(); i += GROUP) {
                List<ChunkMeta> group = metas.subList(i, Math.min(metas.size(), i + GROUP));
                if (matcher == null && group.stream().allMatch(m -> m.minTime() >= from && m.maxTime() < to && !filtered(scope, m))) {
                    total += group.stream().mapToLong(ChunkMeta::lines).sum();
                } else {
                    groups.add(group);
                }
            }
            // the next groups' bodies (the store's readAhead) are on their way while this group is decoded and searched
            java.util.ArrayDeque<CompletableFuture<Map<ChunkRef, byte[]>>> ahead = new java.util.ArrayDeque<>();
            int fetched = 0;
            while (fetched < groups.size() && ahead.size() < queries.readAhead()) {
                ahead.add(fetch(groups.get(fetched++)));
            }
            for (int g = 0; g < groups.size(); g++) {
                Map<ChunkRef, byte[]> bodies = join(ahead.poll());
                List<CompletableFuture<Long>> counts = new ArrayList<>();
                for (ChunkMeta m : groups.get(g)) {
                    byte[] body = bodies.get(m.ref());
                    if (body == null) {
                        throw new LogReader.Moved();
                    }
                    // a chunk inside the range needs only its texts searched; one the range cuts, its times too; a job's
                    // system chunk its lines' attribution
                    boolean inside = m.minTime() >= from && m.maxTime() < to && !filtered(scope, m);
                    counts.add(CompletableFuture.supplyAsync(() -> !inside ? countIn(scope, m, ChunkCodec.decode(body), from, to, matcher)
                            : matcher == null ? m.lines() : ChunkCodec.countTexts(body, matcher::countIn), pool));
                }
                // the next group's requests once this group's work is queued: an S3 store builds and signs them on this
                // thread (16 a group, ~0.5 ms each), which held the search threads idle when done first (ADR 0053)
                if (fetched < groups.size()) {
                    ahead.add(fetch(groups.get(fetched++)));
                }
                read += groups.get(g).size();
                for (CompletableFuture<Long> c : counts) {
                    total += join(c);
                }
            }
            if (metas.size() < 500) {
                return new Count(total, read);
            }
            ChunkMeta last = metas.get(metas.size() - 1);
            afterKey = last.minTime();
            afterId = last.ref().id();
        }
    }

    private CompletableFuture<Map<ChunkRef, byte[]>> fetch(List<ChunkMeta> group) {
        return queries.bodiesAsync(group.stream().map(ChunkMeta::ref).toList());
    }

    /** Whether the chunk's lines are each the job's or not (a system chunk of a job's scope). */
    private static boolean filtered(Scope scope, ChunkMeta m) {
        return m.system() && scope.attribution() != null;
    }

    /** The matching lines of a chunk in {@code [from, to)} (of a system chunk, those that are the job's). */
    private static long countIn(Scope scope, ChunkMeta m, ChunkData d, long from, long to, LineMatcher matcher) {
        boolean[] match = matcher == null ? null : matcher.matches(d);
        io.jobmon.logs.attribution.Attribution[] mine = scope.attribute(m, d);
        long n = 0;
        for (int i = 0; i < d.size; i++) {
            if (d.times[i] >= from && d.times[i] < to && (match == null || match[i]) && (mine == null || mine[i] != null)) {
                n++;
            }
        }
        return n;
    }

    private static <T> T join(CompletableFuture<T> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(e.getCause());
        }
    }
}
