package io.jobmon.logs.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.logs.chunk.ChunkCodec;
import io.jobmon.logs.chunk.ChunkRef;
import io.jobmon.logs.chunk.StoredLine;
import java.io.IOException;
import java.io.InputStream;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * Tails, backward pages and forward reads over chunks of many segments (a backward read decodes only a chunk's newest
 * segments) and a chunk in the first body format, against the same lines sorted in memory. The index is served from
 * memory here (its SQL is exercised by {@code LogsEndpointTest}); bodies are the codec's.
 */
class LogReaderTest {

    private static final long BASE = 1_783_937_699_000_000_000L;
    private static final ExecutorService POOL = Executors.newFixedThreadPool(2);

    /** A chunk as the index and the store hold it, and its lines as positions. */
    private record Chunk(ChunkMeta meta, byte[] body) {
    }

    private final List<Chunk> chunks = new ArrayList<>();
    private final List<Position> all = new ArrayList<>();

    LogReaderTest() throws IOException {
        // partition 0: the chunk written in format 1 (3,000 lines, see ChunkCodecTest), then a newer one of format 2
        byte[] v1;
        try (InputStream in = getClass().getResourceAsStream("/chunks/v1-3000-lines.zst")) {
            v1 = in.readAllBytes();
        }
        List<StoredLine> v1Lines = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            v1Lines.add(new StoredLine(BASE + i * 1_000_123L, 1000 + i, i % 3 == 0 ? 1 : 0, 0, ""));
        }
        add(0, v1Lines, v1);
        add(0, lines(0, 3000, 4000, 4000));
        // partitions 1-3: pods whose lines interleave with those, in chunks of several thousand lines
        for (int p = 1; p <= 3; p++) {
            add(p, lines(p, 0, 2500, 0));
            add(p, lines(p, 2500, 6100, 0));
        }
        all.sort(Comparator.naturalOrder());
    }

    @AfterAll
    static void stop() {
        POOL.shutdown();
    }

    @Test
    void aTailIsTheNewestLinesNewestFirst() {
        List<Position> got = read(null, false, 1000, null);
        assertEquals(newestFirst(all).subList(0, 1001), got);
    }

    @Test
    void backwardPagesFromATailToTheStartMissAndRepeatNoLine() {
        for (int firstBatch : new int[] {32, 1, 2}) { // the index read in one batch, or in batches of 1, 2, 4, 8
            assertEquals(newestFirst(all), backwardPages(firstBatch), "first batch " + firstBatch);
        }
    }

    private List<Position> backwardPages(int firstBatch) {
        List<Position> got = new ArrayList<>();
        Position after = null;
        while (true) {
            List<Position> page = read(after, false, 700, null, 1.5, firstBatch);
            List<Position> taken = page.subList(0, Math.min(700, page.size()));
            got.addAll(taken);
            if (page.size() <= 700) {
                break;
            }
            after = taken.get(taken.size() - 1);
        }
        return got;
    }

    @Test
    void aTailThatSkipsMoreLinesThanItsNewestSegmentsHoldReadsOnIntoTheRestOfTheChunk() {
        // a follow's start: lines after "now" are left to the live path; here the newest 5,000
        Position now = newestFirst(all).get(5000);
        Predicate<Position> accept = p -> p.compareTo(now) <= 0;
        List<Position> got = read(null, false, 1000, accept);
        assertEquals(newestFirst(all).subList(5000, 6001), got);
    }

    @Test
    void aForwardReadIsEveryLineOldestFirst() {
        List<Position> got = read(null, true, all.size() + 10, null);
        assertEquals(all, got);
    }

    @Test
    void aTailFetchesOnlyTheFrontOfBigBodiesAndTheRestOfOneWhenTheFrontEndsTooSoon() {
        List<Position> expected = newestFirst(all).subList(0, 1001);
        // the chunks the tail takes its lines from: the newest of partitions 1-3 (3,600 lines, ~25 KB each)
        List<Chunk> newest = chunks.stream().filter(c -> c.meta().partition() > 0 && c.meta().maxOffset() == 6099).toList();
        assertEquals(expected, read(null, false, 1000, null, 1.5));
        for (Chunk c : newest) {
            int front = LogReader.front(c.meta(), 1001, 1.5);
            assertTrue(front > 0 && front < c.body().length, front + " of " + c.body().length);
            assertEquals(front, fetched.get(c.meta().ref()), "only the front of the body");
        }
        // fronts of a tenth of that: too short; the whole bodies are fetched after them
        fetched.clear();
        assertEquals(expected, read(null, false, 1000, null, 0.15));
        for (Chunk c : newest) {
            assertEquals(LogReader.front(c.meta(), 1001, 0.15) + c.body().length, fetched.get(c.meta().ref()));
        }
    }

    private final Map<ChunkRef, Integer> fetched = new HashMap<>();

    private List<Position> read(Position after, boolean forward, int limit, Predicate<Position> accept) {
        return read(after, forward, limit, accept, 1.5, 32);
    }

    private List<Position> read(Position after, boolean forward, int limit, Predicate<Position> accept, double frontSlack) {
        return read(after, forward, limit, accept, frontSlack, 32);
    }

    private List<Position> read(Position after, boolean forward, int limit, Predicate<Position> accept, double frontSlack,
            int firstBatch) {
        LogReader reader = new LogReader(new InMemory(), POOL, frontSlack, firstBatch);
        Scope scope = new Scope("j", true, false, null, null, List.of(), Long.MIN_VALUE, Long.MAX_VALUE);
        return reader.read(new LogReader.Request(scope, Long.MIN_VALUE, Long.MAX_VALUE, after, forward, limit, null, accept))
                .stream().map(LogReader.Found::position).toList();
    }

    private static List<Position> newestFirst(List<Position> sorted) {
        List<Position> out = new ArrayList<>(sorted);
        out.sort(Comparator.reverseOrder());
        return out;
    }

    /** Lines {@code from..to} of a pod: ~100 bytes each, times interleaved with the other pods'. */
    private static List<StoredLine> lines(int pod, int from, int to, long offsetBase) {
        List<StoredLine> out = new ArrayList<>();
        for (int i = from; i < to; i++) {
            out.add(new StoredLine(BASE + i * 1_000_123L + pod * 7L, offsetBase + i, 0, 0,
                    "pod " + pod + " step " + i + " loss=" + (2.0 - i / 10_000.0) + " lr=3e-4 tokens/s=" + (3500 + i % 97)
                            + " grad_norm=0.9" + " x".repeat(i % 40)));
        }
        return out;
    }

    private void add(int partition, List<StoredLine> lines) {
        add(partition, lines, ChunkCodec.encode(lines, 3, 1024).body());
    }

    private void add(int partition, List<StoredLine> lines, byte[] body) {
        StoredLine first = lines.get(0);
        StoredLine last = lines.get(lines.size() - 1);
        ChunkMeta meta = new ChunkMeta(new ChunkRef(LocalDate.of(2026, 7, 13), chunks.size() + 1), 'u', "n", "ns",
                "pod-" + partition, "c", partition, first.offset(), last.offset(), first.time(), last.time(),
                lines.size(), 0, body.length);
        chunks.add(new Chunk(meta, body));
        lines.forEach(l -> all.add(new Position(l.time(), partition, l.offset(), l.sub())));
    }

    /** The index and the bodies, as the SQL of {@link ChunkQueries} selects and orders them. */
    private final class InMemory extends ChunkQueries {
        InMemory() {
            super(null, null);
        }

        @Override
        public List<ChunkMeta> metas(Scope s, long from, long to, int[] hashes, boolean forward, long afterKey,
                long afterId, int n) {
            Comparator<ChunkMeta> order = forward
                    ? Comparator.comparingLong(ChunkMeta::minTime).thenComparingLong(m -> m.ref().id())
                    : Comparator.comparingLong(ChunkMeta::maxTime).thenComparingLong((ChunkMeta m) -> m.ref().id()).reversed();
            return chunks.stream().map(Chunk::meta)
                    .filter(m -> m.maxTime() >= from && m.minTime() < to)
                    .filter(m -> forward ? m.minTime() > afterKey || m.minTime() == afterKey && m.ref().id() > afterId
                            : m.maxTime() < afterKey || m.maxTime() == afterKey && m.ref().id() < afterId)
                    .sorted(order).limit(n).toList();
        }

        @Override
        public Map<ChunkRef, byte[]> bodies(List<ChunkRef> refs) {
            return bodies(refs, new int[refs.size()]);
        }

        @Override
        public Map<ChunkRef, byte[]> bodies(List<ChunkRef> refs, int[] firstBytes) {
            Map<ChunkRef, byte[]> out = new HashMap<>();
            for (Chunk c : chunks) {
                int i = refs.indexOf(c.meta().ref());
                if (i >= 0) {
                    byte[] b = firstBytes[i] > 0 ? Arrays.copyOf(c.body(), Math.min(firstBytes[i], c.body().length)) : c.body();
                    out.put(c.meta().ref(), b);
                    fetched.merge(c.meta().ref(), b.length, Integer::sum);
                }
            }
            assertTrue(out.size() == refs.size());
            return out;
        }
    }
}
