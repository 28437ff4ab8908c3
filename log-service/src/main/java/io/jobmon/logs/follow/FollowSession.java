package io.jobmon.logs.follow;

import io.jobmon.contracts.http.ApiJson;
import io.jobmon.logs.attribution.Attribution;
import io.jobmon.logs.chunk.ChunkCodec;
import io.jobmon.logs.chunk.ChunkData;
import io.jobmon.logs.chunk.ChunkRef;
import io.jobmon.logs.query.ChunkMeta;
import io.jobmon.logs.query.ChunkQueries;
import io.jobmon.logs.query.LineMatcher;
import io.jobmon.logs.query.LogReader;
import io.jobmon.logs.query.Position;
import io.jobmon.logs.query.Scope;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * One open follow: polls the store for lines beyond its cursor (whichever replica consumed them), writes them as
 * events whose id is the cursor after the line, sends a comment when idle, waits for a slow client, ends when the
 * client goes ({@link FollowSlot}). No time limit.
 */
final class FollowSession {

    private static final Logger LOG = Logger.getLogger(FollowSession.class);
    /** Raw bytes of chunks one poll reads at most per partition (a follower far behind catches up over several). */
    private static final long PER_PARTITION_BYTES = 16L << 20;
    private static final long END_CHECK_NANOS = 1_000_000_000L;

    private final Vertx vertx;
    private final HttpServerResponse response;
    private final Scope scope;
    private final Supplier<LineMatcher> matcher;
    private final FollowQueries follows;
    private final ChunkQueries chunks;
    private final long pollMillis;
    private final long heartbeatNanos;
    private FollowCursor cursor;
    private boolean inclusive;
    private volatile boolean closed;
    private long lastWrite = System.nanoTime();
    /** Asked, at most once a second while nothing new comes, whether the job ended (null: never ends the follow). */
    private Supplier<FollowQueries.Ended> ended;
    private long lastEndCheck;

    FollowSession(Vertx vertx, HttpServerResponse response, Scope scope, Supplier<LineMatcher> matcher, FollowQueries follows,
            ChunkQueries chunks, long pollMillis, long heartbeatNanos, FollowCursor cursor, boolean resumed) {
        this.vertx = vertx;
        this.response = response;
        this.scope = scope;
        this.matcher = matcher;
        this.follows = follows;
        this.chunks = chunks;
        this.pollMillis = pollMillis;
        this.heartbeatNanos = heartbeatNanos;
        this.cursor = cursor;
        this.inclusive = resumed;
    }

    /** The follow ends with an {@code end} event once the job is final and its lines are drained. */
    void endWhen(Supplier<FollowQueries.Ended> check) {
        this.ended = check;
    }

    void resumeFrom(FollowCursor at) {
        this.cursor = at;
    }

    /** Polls until stopped ({@link FollowSlot} stops it when the client goes). */
    void start() {
        schedule(0);
    }

    void stop() {
        closed = true;
    }

    private void schedule(long delay) {
        if (closed) {
            return;
        }
        Runnable next = () -> vertx.executeBlocking(() -> {
            poll();
            return null;
        }, false).onComplete(ar -> {
            if (ar.failed()) {
                LOG.warnf("follow poll failed (retrying): %s", ar.cause().toString());
            }
            if (response.writeQueueFull()) {
                response.drainHandler(v -> schedule(pollMillis));
            } else {
                schedule(pollMillis);
            }
        });
        if (delay <= 0) {
            next.run();
        } else {
            vertx.setTimer(delay, id -> next.run());
        }
    }

    /** Writes the lines beyond the cursor, partition by partition in offset order. */
    void poll() {
        if (closed) {
            return;
        }
        if (scope.attribution() != null) {
            scope.attribution().refreshIfStale(); // new containers, GPU holdings, OOM events of the job
        }
        List<ChunkMeta> metas = new ArrayList<>(follows.beyond(scope, cursor, inclusive));
        metas.sort(Comparator.comparingInt(ChunkMeta::partition).thenComparingLong(ChunkMeta::minOffset));
        Map<Integer, Long> bound = new HashMap<>();
        Map<Integer, Long> bytes = new HashMap<>();
        List<ChunkMeta> take = new ArrayList<>();
        for (ChunkMeta m : metas) {
            if (bound.containsKey(m.partition())) {
                continue;
            }
            long b = bytes.merge(m.partition(), m.rawBytes(), Long::sum);
            if (b > PER_PARTITION_BYTES && b != m.rawBytes()) {
                bound.put(m.partition(), m.minOffset());
                continue;
            }
            take.add(m);
        }
        LineMatcher match = matcher.get();
        Map<Integer, List<LogReader.Found>> byPartition = new HashMap<>();
        for (int i = 0; i < take.size(); i += 16) {
            List<ChunkMeta> group = take.subList(i, Math.min(take.size(), i + 16));
            Map<ChunkRef, byte[]> bodies = chunks.bodies(group.stream().map(ChunkMeta::ref).toList());
            for (ChunkMeta m : group) {
                byte[] body = bodies.get(m.ref());
                if (body == null) {
                    return; // compacted or expired meanwhile: the next poll reads its successor
                }
                ChunkData d = ChunkCodec.decode(body);
                Attribution[] mine = scope.attribute(m, d); // a system line only when it is the job's
                long limit = bound.getOrDefault(m.partition(), Long.MAX_VALUE);
                for (int l = 0; l < d.size; l++) {
                    if (!cursor.after(m.partition(), d.offsets[l], d.subs[l]) || d.offsets[l] >= limit) {
                        continue;
                    }
                    if (m.system() && (d.times[l] < scope.systemFrom() || d.times[l] >= scope.systemTo())) {
                        continue;
                    }
                    if (match != null && !match.matches(d.line(l)) || mine != null && mine[l] == null) {
                        continue;
                    }
                    byPartition.computeIfAbsent(m.partition(), k -> new ArrayList<>()).add(new LogReader.Found(m,
                            new Position(d.times[l], m.partition(), d.offsets[l], d.subs[l]), d.stored(l),
                            mine == null ? null : mine[l]));
                }
            }
        }
        inclusive = false;
        write(byPartition);
        if (byPartition.isEmpty() && bound.isEmpty() && endIfFinished()) {
            return;
        }
        if (System.nanoTime() - lastWrite >= heartbeatNanos && !closed) {
            response.write(": keepalive\n\n");
            lastWrite = System.nanoTime();
        }
    }

    /** Nothing more to send and the job is final: an {@code end} event with its status, and the response ends. */
    private boolean endIfFinished() {
        if (ended == null || closed || System.nanoTime() - lastEndCheck < END_CHECK_NANOS) {
            return false;
        }
        lastEndCheck = System.nanoTime();
        FollowQueries.Ended e = ended.get();
        if (e == null) {
            return false;
        }
        Map<String, Object> data = new java.util.LinkedHashMap<>();
        data.put("status", e.status());
        data.put("finishedAt", io.jobmon.contracts.http.ApiJson.TIME.format(e.finishedAt()));
        closed = true;
        response.end("id: " + cursor.id() + "\nevent: end\ndata: " + ApiJson.toJson(data) + "\n\n");
        return true;
    }

    /** Merges the partitions by line time, each in offset order; every event carries the cursor after its line. */
    private void write(Map<Integer, List<LogReader.Found>> byPartition) {
        if (byPartition.isEmpty()) {
            return;
        }
        Comparator<LogReader.Found> offsetOrder = Comparator.comparingLong((LogReader.Found f) -> f.position().offset())
                .thenComparingInt(f -> f.position().sub());
        PriorityQueue<int[]> heads = new PriorityQueue<>(Comparator.comparingLong(
                (int[] h) -> byPartition.get(h[0]).get(h[1]).position().time()));
        byPartition.forEach((p, list) -> {
            list.sort(offsetOrder);
            heads.add(new int[] {p, 0});
        });
        StringBuilder out = new StringBuilder();
        while (!heads.isEmpty() && !closed) {
            int[] h = heads.poll();
            LogReader.Found f = byPartition.get(h[0]).get(h[1]);
            cursor.advance(h[0], f.position().offset(), f.position().sub());
            out.append("id: ").append(cursor.id()).append("\nevent: line\ndata: ")
                    .append(ApiJson.toJson(LogReader.item(f))).append("\n\n");
            if (out.length() > 64 * 1024) {
                response.write(out.toString());
                out.setLength(0);
            }
            if (++h[1] < byPartition.get(h[0]).size()) {
                heads.add(h);
            }
        }
        if (out.length() > 0 && !closed) {
            response.write(out.toString());
        }
        lastWrite = System.nanoTime();
    }

    /** Writes lines shown before following (the tail), then the cursor they end at. */
    void writeTail(List<LogReader.Found> tail, FollowCursor at) {
        StringBuilder out = new StringBuilder();
        for (LogReader.Found f : tail) {
            out.append("event: line\ndata: ").append(ApiJson.toJson(LogReader.item(f))).append("\n\n");
        }
        out.append("id: ").append(at.id()).append("\nevent: following\ndata: {}\n\n");
        response.write(out.toString());
        lastWrite = System.nanoTime();
    }
}
