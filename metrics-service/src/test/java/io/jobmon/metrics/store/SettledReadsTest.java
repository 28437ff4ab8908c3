package io.jobmon.metrics.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/**
 * What {@link SettledReads} keeps of an engine's answers and when it asks again (ADR 0044): a fake engine that
 * answers a point every minute for one series and logs the ranges it was asked for; notices and the clock in the
 * test's hands.
 */
class SettledReadsTest {

    static final long M = 60_000;
    static final long NOW = 1_000 * 60 * M;

    /** Change notices heard in the test: no database (not a bean of the Quarkus tests). */
    @jakarta.enterprise.inject.Vetoed
    static final class Notices extends ChangeNotices {
        boolean listening = true;
        final AtomicLong seq = new AtomicLong();
        final Map<String, Long> heard = new java.util.concurrent.ConcurrentHashMap<>();

        Notices() {
            super(null, "postgresql://127.0.0.1:1/none", "u", "p");
        }

        @Override
        public long seq() {
            return seq.get();
        }

        @Override
        public boolean listening() {
            return listening;
        }

        @Override
        public boolean changedSince(long since, String token) {
            return !listening || heard.getOrDefault(token, Long.MIN_VALUE) > since;
        }

        void notice(String token) {
            heard.put(token, seq.incrementAndGet());
        }
    }

    final Notices notices = new Notices();
    final AtomicLong clock = new AtomicLong(NOW);
    /** settled after 2 minutes */
    final SettledReads reads = new SettledReads(notices, 2 * M, 16, clock::get);
    final List<long[]> asked = new ArrayList<>();
    /** the engine's value at minute i; changed by a late sample */
    final double[] value = new double[2000];

    final BiFunction<Long, Long, Uni<List<PromClient.Series>>> engine = (from, to) -> {
        asked.add(new long[] {from, to});
        List<Long> t = new ArrayList<>();
        for (long x = (from + M - 1) / M * M; x < to && x <= clock.get(); x += M) {
            t.add(x);
        }
        long[] ts = t.stream().mapToLong(Long::longValue).toArray();
        double[] vs = new double[ts.length];
        for (int i = 0; i < ts.length; i++) {
            vs[i] = value[(int) (ts[i] / M) % value.length];
        }
        return Uni.createFrom().item(List.of(new PromClient.Series(Map.of("gpu", "0"), ts, vs)));
    };

    List<PromClient.Series> read(long from, long to) {
        return reads.read("q", List.of("n1"), from, to, M, engine).await().indefinitely();
    }

    /** A first read begun {@link SettledReads#VISIBLE_MS} after the first mark: what it reads is kept. */
    void warm() {
        read(NOW - 90 * M, NOW - 80 * M);
        clock.addAndGet(SettledReads.VISIBLE_MS);
        asked.clear();
    }

    @Test
    void aSettledRangeReadAgainAsksTheEngineNothingAndAnswersTheSame() {
        warm();
        List<PromClient.Series> first = read(NOW - 60 * M, NOW - 10 * M);
        List<PromClient.Series> again = read(NOW - 60 * M, NOW - 10 * M);
        assertEquals(1, asked.size());
        assertArrayEquals(first.get(0).t(), again.get(0).t());
        assertEquals(50, again.get(0).t().length);
        // a part of it too
        assertEquals(10, read(NOW - 30 * M, NOW - 20 * M).get(0).t().length);
        assertEquals(1, asked.size());
    }

    @Test
    void onlyWhatIsNotSettledYetIsAskedAgainAndWhatSettledSinceIsKept() {
        warm();
        long t = clock.get();
        long to = t + 10 * M;
        assertEquals(60, read(t - 60 * M, to).get(0).t().length);
        long line = (t - 2 * M) / M * M;
        clock.addAndGet(5 * M);
        List<PromClient.Series> again = read(t - 60 * M, to);
        assertEquals(2, asked.size());
        assertArrayEquals(new long[] {line, to}, asked.get(1), "only from the settled line on");
        assertEquals(65, again.get(0).t().length, "the held points, then the engine's");
        // what settled in between is held now: the next read asks from the new line
        read(t - 60 * M, to);
        assertArrayEquals(new long[] {(clock.get() - 2 * M) / M * M, to}, asked.get(2));
    }

    @Test
    void aLateNoticeOfTheNodeMakesTheWholeRangeBeReadAgain() {
        warm();
        read(NOW - 60 * M, NOW - 10 * M);
        value[(int) ((NOW - 30 * M) / M) % value.length] = 42;
        notices.notice(SettledReads.lateToken("n2"));
        read(NOW - 60 * M, NOW - 10 * M);
        assertEquals(1, asked.size(), "another node's notice changes nothing");
        notices.notice(SettledReads.lateToken("n1"));
        clock.addAndGet(1000);
        PromClient.Series s = read(NOW - 60 * M, NOW - 10 * M).get(0);
        assertEquals(2, asked.size());
        assertEquals(42.0, s.v()[30]);
        // read within VISIBLE_MS of the notice: the engine may not have shown the sample yet, so it is read again
        read(NOW - 60 * M, NOW - 10 * M);
        assertEquals(3, asked.size());
        clock.addAndGet(SettledReads.VISIBLE_MS);
        read(NOW - 60 * M, NOW - 10 * M);
        read(NOW - 60 * M, NOW - 10 * M);
        assertEquals(4, asked.size());
    }

    @Test
    void nothingIsKeptWhileNoNoticesAreHeardNorForSeriesWithoutANode() {
        warm();
        notices.listening = false;
        read(NOW - 60 * M, NOW - 10 * M);
        read(NOW - 60 * M, NOW - 10 * M);
        assertEquals(2, asked.size());
        notices.listening = true;
        reads.read("p", List.of(""), NOW - 60 * M, NOW - 10 * M, M, engine).await().indefinitely();
        reads.read("p", List.of(""), NOW - 60 * M, NOW - 10 * M, M, engine).await().indefinitely();
        assertEquals(4, asked.size());
    }

    @Test
    void splitsJoinIntoOneSeriesPerLabelSetInTimeOrder() {
        PromClient.Series late = new PromClient.Series(Map.of("a", "1"), new long[] {3, 4}, new double[] {3, 4});
        PromClient.Series early = new PromClient.Series(Map.of("a", "1"), new long[] {1, 2}, new double[] {1, 2});
        PromClient.Series other = new PromClient.Series(Map.of("a", "2"), new long[] {2}, new double[] {9});
        List<PromClient.Series> joined = SettledReads.join(List.of(List.of(late), List.of(other, early)));
        assertEquals(2, joined.size());
        PromClient.Series one = joined.stream().filter(s -> s.labels().get("a").equals("1")).findFirst().orElseThrow();
        assertArrayEquals(new long[] {1, 2, 3, 4}, one.t());
        assertArrayEquals(new double[] {1, 2, 3, 4}, one.v());
        assertEquals(List.of(), SettledReads.slice(joined, 5, 9));
        assertArrayEquals(new long[] {2, 3}, SettledReads.slice(List.of(one), 2, 4).get(0).t());
    }
}
