package io.jobmon.logs.query;

import io.jobmon.logs.attribution.Attribution;
import io.jobmon.logs.chunk.ChunkCodec;
import io.jobmon.logs.chunk.ChunkData;
import io.jobmon.logs.chunk.ChunkRef;
import io.jobmon.logs.chunk.StoredLine;
import io.jobmon.logs.intake.Times;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.function.Predicate;

/**
 * Reads a scope's lines in position order from a cursor, forward or backward: a merge of the chunks (several streams,
 * partitions, replicas; chunks may overlap in time) that opens a chunk only when its first (last) line could come
 * next. Bodies are fetched a few chunks ahead and decoded and searched in parallel. Runs on a worker thread.
 */
public final class LogReader {

    /** A chunk removed between reading the index and its body (compaction, expiry): the read starts over. */
    public static final class Moved extends RuntimeException {
        Moved() {
            super(null, null, false, false);
        }
    }

    /** What to read. {@code accept} further limits lines (a follow's start); may be null. */
    public record Request(Scope scope, long from, long to, Position after, boolean forward, int limit,
            LineMatcher matcher, Predicate<Position> accept) {
    }

    /** A line found, with its chunk's stream, and for a system line of a job why it is the job's (else null). */
    public record Found(ChunkMeta chunk, Position position, StoredLine line, Attribution attribution) {

        public Found(ChunkMeta chunk, Position position, StoredLine line) {
            this(chunk, position, line, null);
        }
    }

    /** Index rows read at a time; a tail or backward page starts with fewer, as it usually needs a chunk per stream. */
    private static final int BATCH = 200;
    private static final int FIRST_BATCH_BACKWARD = 32;
    private static final int AHEAD = 8;
    /** … and when only their fronts are fetched (a tail, a backward page): the newest chunks of up to 16 pods in one fetch. */
    private static final int AHEAD_FRONTS = 16;

    private final ChunkQueries queries;
    private final ExecutorService pool;
    private final double frontSlack;
    private final int firstBatchBackward;

    public LogReader(ChunkQueries queries, ExecutorService pool) {
        this(queries, pool, 1.5, FIRST_BATCH_BACKWARD);
    }

    /**
     * @param frontSlack how much more of a body's front a tail fetches than its average line size says ({@link #front})
     * @param firstBatchBackward index rows a backward read without a search reads first (doubling up to 200 after)
     */
    LogReader(ChunkQueries queries, ExecutorService pool, double frontSlack, int firstBatchBackward) {
        this.queries = queries;
        this.pool = pool;
        this.frontSlack = frontSlack;
        this.firstBatchBackward = firstBatchBackward;
    }

    /**
     * The bytes of a body's front that hold its newest {@code lines} lines, by the chunk's compressed bytes per line:
     * those lines and one segment more (segments are read whole), times {@code slack} for lines longer than the
     * average, and the frame's header. 0 (the whole body) when that is most of it.
     */
    static int front(ChunkMeta m, int lines, double slack) {
        if (m.lines() <= 0 || m.storedBytes() <= 0) {
            return 0;
        }
        double perLine = (double) m.storedBytes() / m.lines();
        long front = 512 + (long) Math.ceil(perLine * (lines + ChunkCodec.SEGMENT_LINES) * slack);
        return front * 4 >= m.storedBytes() * 3L ? 0 : (int) front;
    }

    /** Up to {@code limit + 1} lines (the extra one tells whether there are more). */
    public List<Found> read(Request r) {
        Comparator<Head> order = Comparator.comparing(Head::position);
        PriorityQueue<Head> heads = new PriorityQueue<>(r.forward() ? order : order.reversed());
        Metas metas = new Metas(r);
        List<Found> out = new ArrayList<>();
        while (out.size() <= r.limit()) {
            while (metas.hasNext() && (heads.isEmpty() || opensBefore(metas.peek(), heads.peek(), r.forward()))) {
                Head h = metas.open();
                if (h != null && h.seek(r)) {
                    heads.add(h);
                }
            }
            Head h = heads.poll();
            if (h == null) {
                break;
            }
            out.add(h.found());
            if (h.next(r)) {
                heads.add(h);
            }
        }
        return out;
    }

    private static boolean opensBefore(ChunkMeta m, Head h, boolean forward) {
        return forward ? m.minTime() <= h.position().time() : m.maxTime() >= h.position().time();
    }

    /** The chunks in reading order, their bodies fetched and decoded ahead. */
    private final class Metas {
        private final Request r;
        private final Deque<ChunkMeta> queue = new ArrayDeque<>();
        private final Map<ChunkRef, CompletableFuture<Head>> ready = new HashMap<>();
        private long afterKey;
        private long afterId;
        private boolean exhausted;
        private int batchSize;

        Metas(Request r) {
            this.r = r;
            this.afterKey = r.forward() ? Long.MIN_VALUE : Long.MAX_VALUE;
            this.afterId = r.forward() ? Long.MIN_VALUE : Long.MAX_VALUE;
            this.batchSize = r.forward() || r.matcher() != null ? BATCH : firstBatchBackward;
        }

        boolean hasNext() {
            fill();
            return !queue.isEmpty();
        }

        ChunkMeta peek() {
            fill();
            return queue.peekFirst();
        }

        private void fill() {
            if (!queue.isEmpty() || exhausted) {
                return;
            }
            long from = r.from();
            long to = r.to();
            if (r.after() != null) {
                if (r.forward()) {
                    from = Math.max(from, r.after().time());
                } else {
                    to = Math.min(to, r.after().time() + 1);
                }
            }
            List<ChunkMeta> batch = queries.metas(r.scope(), from, to, r.matcher() == null ? null : r.matcher().hashes(),
                    r.forward(), afterKey, afterId, batchSize);
            if (batch.size() < batchSize) {
                exhausted = true;
            }
            batchSize = Math.min(BATCH, batchSize * 2);
            if (!batch.isEmpty()) {
                ChunkMeta last = batch.get(batch.size() - 1);
                afterKey = r.forward() ? last.minTime() : last.maxTime();
                afterId = last.ref().id();
            }
            queue.addAll(batch);
        }

        /** The next chunk decoded (null if it matched nothing). */
        Head open() {
            ChunkMeta m = queue.pollFirst();
            if (!ready.containsKey(m.ref())) {
                prefetch(m);
            }
            try {
                return ready.remove(m.ref()).get();
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

        /**
         * Whether a backward read needs only the chunk's newest lines: no search (its matches may be far apart), and
         * the chunk's last line inside the range and before the cursor, so that its newest {@code limit + 1} lines are
         * all the read can take from it; should it take more, the head decodes the rest.
         */
        private boolean newestOnly(ChunkMeta m) {
            return !r.forward() && r.matcher() == null && m.maxTime() < r.to()
                    && (r.after() == null || m.maxTime() < r.after().time());
        }

        /**
         * Whether the chunks of {@code group} wholly newer than {@code m} hold more lines than a backward read takes: then
         * neither m nor the chunks after it (older ones) may be opened, e.g. a pod's older chunks under its newest ones
         * (ADR 0052); should the read still need m (lines out of range or not the job's), it is fetched when opened.
         */
        private boolean enoughBefore(List<ChunkMeta> group, ChunkMeta m) {
            long newer = 0;
            for (ChunkMeta g : group) {
                if (g.minTime() > m.maxTime()) {
                    newer += g.lines();
                }
            }
            return newer > r.limit();
        }

        /**
         * Fetches and decodes the chunk and the next few after it. Of a chunk whose newest lines are all the read needs
         * ({@link #newestOnly}) only the front of its body is fetched ({@link #front}): its newest segments come first.
         */
        private void prefetch(ChunkMeta first) {
            List<ChunkMeta> group = new ArrayList<>();
            group.add(first);
            int ahead = newestOnly(first) ? AHEAD_FRONTS : AHEAD;
            for (ChunkMeta m : queue) {
                if (group.size() >= ahead || ahead == AHEAD_FRONTS && enoughBefore(group, m)) {
                    break;
                }
                if (!ready.containsKey(m.ref())) {
                    group.add(m);
                }
            }
            int[] firstBytes = new int[group.size()];
            List<ChunkRef> fetch = new ArrayList<>(group.size());
            List<Integer> fetchBytes = new ArrayList<>(group.size());
            for (int i = 0; i < firstBytes.length; i++) {
                ChunkMeta m = group.get(i);
                firstBytes[i] = newestOnly(m) ? front(m, r.limit() + 1, frontSlack) : 0;
                if (!newestOnly(m) || m.newest() == null) {
                    fetch.add(m.ref());
                    fetchBytes.add(firstBytes[i]);
                }
            }
            Map<ChunkRef, byte[]> bodies = fetch.isEmpty() ? Map.of()
                    : queries.bodies(fetch, fetchBytes.stream().mapToInt(Integer::intValue).toArray());
            for (int i = 0; i < group.size(); i++) {
                ChunkMeta m = group.get(i);
                boolean tail = newestOnly(m);
                byte[] body = tail && m.newest() != null ? m.newest() : bodies.get(m.ref());
                if (body == null) {
                    throw new Moved();
                }
                // a kept newest segment (ADR 0047) is read as a front: the lines past it are fetched if the read goes on
                ChunkBody b = m.newest() != null && tail ? new ChunkBody(m.ref(), body, false, queries, firstBytes[i])
                        : new ChunkBody(m.ref(), body, firstBytes[i] == 0 || body.length < firstBytes[i], queries, -1);
                ready.put(m.ref(), CompletableFuture.supplyAsync(() -> {
                    ChunkData d = tail ? b.newest(r.limit() + 1) : ChunkCodec.decode(b.whole());
                    boolean[] match = r.matcher() == null ? null : r.matcher().matches(d);
                    return new Head(m, d, match, r.scope().attribute(m, d), b);
                }, pool));
            }
        }
    }

    /** A decoded chunk (or its newest lines) and the line of it that comes next. */
    private static final class Head {
        final ChunkMeta meta;
        final ChunkBody body;
        ChunkData data;
        boolean[] match;
        /** Of a job's system chunk: whose each line is (null: not the job's); null for all other chunks. */
        Attribution[] attribution;
        int i;
        Position pos;

        Head(ChunkMeta meta, ChunkData data, boolean[] match, Attribution[] attribution, ChunkBody body) {
            this.meta = meta;
            this.data = data;
            this.match = match;
            this.attribution = attribution;
            this.body = body;
        }

        Position position() {
            return pos;
        }

        Found found() {
            return new Found(meta, pos, data.stored(i), attribution == null ? null : attribution[i]);
        }

        /** Positions on the first line to return; false if none. */
        boolean seek(Request r) {
            i = r.forward() ? 0 : data.size - 1;
            return settle(r);
        }

        boolean next(Request r) {
            i += r.forward() ? 1 : -1;
            return settle(r);
        }

        private boolean settle(Request r) {
            while (true) {
                if (settleInData(r)) {
                    return true;
                }
                if (r.forward() || i >= 0 || data.first == 0) {
                    return false;
                }
                // read backward past the newest lines decoded: more of the chunk, on at the line before them
                ChunkData more = body.older(data, r.limit() + 1);
                i = data.first - 1 - more.first;
                data = more;
                match = r.matcher() == null ? null : r.matcher().matches(data);
                attribution = r.scope().attribute(meta, data);
            }
        }

        private boolean settleInData(Request r) {
            int step = r.forward() ? 1 : -1;
            for (; i >= 0 && i < data.size; i += step) {
                long t = data.times[i];
                if (r.forward() && t >= r.to() || !r.forward() && t < r.from()) {
                    return false;
                }
                if (t < r.from() || t >= r.to() || match != null && !match[i] || attribution != null && attribution[i] == null) {
                    continue;
                }
                Position p = new Position(t, meta.partition(), data.offsets[i], data.subs[i]);
                if (r.after() != null && (r.forward() ? p.compareTo(r.after()) <= 0 : p.compareTo(r.after()) >= 0)) {
                    continue;
                }
                if (r.accept() != null && !r.accept().test(p)) {
                    continue;
                }
                pos = p;
                return true;
            }
            return false;
        }
    }

    /** The API form of a found line. */
    public static LogLine item(Found f) {
        ChunkMeta m = f.chunk();
        StoredLine l = f.line();
        boolean system = m.system();
        return new LogLine(Times.instant(l.time()), system ? "system" : "user", system ? null : m.pod(),
                system ? null : m.container(), m.node().isEmpty() ? null : m.node(),
                system ? m.container() : (l.flags() & StoredLine.STDERR) != 0 ? "stderr" : "stdout", l.text(),
                (l.flags() & StoredLine.MASKED) != 0 ? Boolean.TRUE : null,
                (l.flags() & StoredLine.CUT) != 0 ? Boolean.TRUE : null, f.position().cursor(), f.attribution());
    }
}
