package io.jobmon.metrics.store;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.jobmon.metrics.config.MetricsConfig;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.BiFunction;
import java.util.function.LongSupplier;

/**
 * {@code storage=prometheus}: what the engine answered for the settled part of a range, kept in this replica's memory
 * (ADR 0044; the builtin store's {@link DecodedCache} idea, ADR 0008). A read is one engine query (a selector, an
 * aggregate, a step) over [from, to); its answer is series of points at positions in that range (a raw sample's time,
 * a bucket's start). Positions older than {@code prometheus.settled-after} before now are settled: no sample the
 * engine takes from now on lands there, unless jobmon forwards one late, and then its consumer sends the change
 * notice {@code late:<node>} ({@link #lateToken}). A read of a key held from its {@code from} on asks the engine only
 * for what follows the held part; nothing is kept while this replica hears no notices.
 * <p>
 * An engine makes a written sample searchable a moment after its 2xx (VictoriaMetrics: about a second), so a kept
 * answer counts as read at the notice sequence of {@link #VISIBLE_MS} before it began: a late notice heard in that
 * moment makes it be read again.
 */
@ApplicationScoped
public class SettledReads {

    /** How long after its 2xx an engine may still answer without a written sample. */
    public static final long VISIBLE_MS = 5_000;
    /** Sequence marks kept at most this often. */
    private static final long MARK_EVERY_MS = 250;

    /** A held answer: its series' points in [from, to), as of notice sequence {@code seq}, and the tokens it hears. */
    record Held(long from, long to, List<PromClient.Series> series, long seq, List<String> tokens) {
        long bytes() {
            long b = 64;
            for (PromClient.Series s : series) {
                b += 64 + 16L * s.t().length + 48L * s.labels().size();
            }
            return b;
        }
    }

    private final ChangeNotices notices;
    private final long settledMs;
    private final LongSupplier clock;
    private final Cache<String, Held> held;
    /** (time, notice sequence) marks of recent reads, oldest first. */
    private final ArrayDeque<long[]> marks = new ArrayDeque<>();

    @jakarta.inject.Inject
    public SettledReads(ChangeNotices notices, MetricsConfig config) {
        this(notices, config.prometheus().settledAfter().toMillis(), config.storage().readCacheMegabytes(),
                System::currentTimeMillis);
    }

    SettledReads(ChangeNotices notices, long settledMs, int megabytes, LongSupplier clock) {
        this.notices = notices;
        this.settledMs = settledMs;
        this.clock = clock;
        this.held = Caffeine.newBuilder().maximumWeight(megabytes * 1024L)
                .weigher((String k, Held h) -> (int) Math.min(Integer.MAX_VALUE, h.bytes() / 1024 + 1)).build();
    }

    /** The notice that a sample older than the settled line was forwarded for a node's series. */
    public static String lateToken(String node) {
        return "late:" + node;
    }

    /** The settled line now: the oldest time a sample may have and not be late. */
    public long settledLine() {
        return settledLine(clock.getAsLong());
    }

    /** The oldest time a sample may have and not be late at {@code nowMs}. */
    public long settledLine(long nowMs) {
        return nowMs - settledMs;
    }

    /**
     * The answer of {@code key} over [from, to): its settled part from memory when held, the rest (or all) by
     * {@code read}, which answers any [a, b) of it in points at positions in [a, b). {@code align}: where a held part
     * may end (a rollup's bucket). {@code nodes}: the nodes of the series the key selects (none known: not kept).
     */
    public Uni<List<PromClient.Series>> read(String key, Collection<String> nodes, long from, long to, long align,
            BiFunction<Long, Long, Uni<List<PromClient.Series>>> read) {
        long now = clock.getAsLong();
        long settled = Math.min(to, Math.floorDiv(settledLine(now), align) * align);
        if (settled <= from || nodes.isEmpty() || nodes.stream().anyMatch(n -> n == null || n.isEmpty())
                || !notices.listening()) {
            return read.apply(from, to);
        }
        List<String> tokens = new TreeSet<>(nodes).stream().map(SettledReads::lateToken).toList();
        long seq = trustedSeq(now);
        Held kept = held.getIfPresent(key);
        if (kept == null || !usable(kept, from, tokens)) {
            return read.apply(from, to).invoke(found -> keep(key, new Held(from, settled,
                    slice(found, from, settled), seq, tokens)));
        }
        List<PromClient.Series> mine = slice(kept.series(), from, Math.min(settled, kept.to()));
        if (kept.to() >= to) {
            return Uni.createFrom().item(mine);
        }
        long rest = Math.max(from, kept.to());
        return read.apply(rest, to).map(found -> {
            if (settled > kept.to()) {
                // the held part grows by what settled since, and forgets what lies before this read's start
                keep(key, new Held(from, settled, concat(mine, slice(found, rest, settled)), Math.min(kept.seq(), seq),
                        tokens));
            }
            return concat(mine, found);
        });
    }

    /** Whether a held answer still is the engine's from {@code from} on: no late notice of its nodes since. */
    private boolean usable(Held h, long from, List<String> tokens) {
        return h.from() <= from && from <= h.to() && h.tokens().equals(tokens)
                && tokens.stream().noneMatch(t -> notices.changedSince(h.seq(), t));
    }

    private void keep(String key, Held h) {
        if (h.seq() != Long.MIN_VALUE && h.to() > h.from()) {
            held.put(key, h);
        }
    }

    /**
     * The notice sequence a read begun now counts as begun at: the newest mark at least {@link #VISIBLE_MS} old
     * (an older sequence only makes more notices count), or none yet ({@code MIN_VALUE}: not kept).
     */
    public synchronized long trustedSeq(long now) {
        long seq = notices.seq();
        if (marks.isEmpty() || now - marks.peekLast()[0] >= MARK_EVERY_MS) {
            marks.addLast(new long[] {now, seq});
        }
        while (marks.size() > 1) {
            Iterator<long[]> it = marks.iterator();
            it.next();
            if (now - it.next()[0] < VISIBLE_MS) {
                break;
            }
            marks.removeFirst();
        }
        long[] first = marks.peekFirst();
        return now - first[0] >= VISIBLE_MS ? first[1] : Long.MIN_VALUE;
    }

    /** Each series' points at positions in [from, to) (series left without any are left out). */
    static List<PromClient.Series> slice(List<PromClient.Series> series, long from, long to) {
        List<PromClient.Series> out = new ArrayList<>(series.size());
        for (PromClient.Series s : series) {
            int a = lowerBound(s.t(), from);
            int b = lowerBound(s.t(), to);
            if (b > a) {
                out.add(a == 0 && b == s.t().length ? s : new PromClient.Series(s.labels(),
                        Arrays.copyOfRange(s.t(), a, b), Arrays.copyOfRange(s.v(), a, b)));
            }
        }
        return out;
    }

    /** The answers of splits of a range, in any order: one series per label set, its points in time order. */
    static List<PromClient.Series> join(List<List<PromClient.Series>> parts) {
        List<PromClient.Series> all = new ArrayList<>();
        parts.forEach(all::addAll);
        all.sort(java.util.Comparator.comparingLong(s -> s.t().length == 0 ? Long.MIN_VALUE : s.t()[0]));
        return concat(all, List.of(), true);
    }

    /** The points of {@code first} then those of {@code then} (later positions), per label set. */
    static List<PromClient.Series> concat(List<PromClient.Series> first, List<PromClient.Series> then) {
        return concat(first, then, false);
    }

    private static List<PromClient.Series> concat(List<PromClient.Series> first, List<PromClient.Series> then,
            boolean always) {
        if (then.isEmpty() && !always) {
            return first;
        }
        Map<Map<String, String>, PromClient.Series> out = new LinkedHashMap<>();
        for (List<PromClient.Series> part : List.of(first, then)) {
            for (PromClient.Series s : part) {
                out.merge(s.labels(), s, (a, b) -> {
                    long[] t = Arrays.copyOf(a.t(), a.t().length + b.t().length);
                    double[] v = Arrays.copyOf(a.v(), a.v().length + b.v().length);
                    System.arraycopy(b.t(), 0, t, a.t().length, b.t().length);
                    System.arraycopy(b.v(), 0, v, a.v().length, b.v().length);
                    return new PromClient.Series(a.labels(), t, v);
                });
            }
        }
        return new ArrayList<>(out.values());
    }

    /** The first index whose position is {@code x} or later (positions in a series are distinct). */
    private static int lowerBound(long[] t, long x) {
        int i = Arrays.binarySearch(t, x);
        return i >= 0 ? i : -i - 1;
    }

    /** Sends {@link #lateToken} of these nodes when the transaction of {@code conn} commits. */
    public static Uni<Void> noticeLate(io.vertx.mutiny.sqlclient.SqlConnection conn, Collection<String> nodes) {
        if (nodes.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        String[] tokens = nodes.stream().distinct().map(SettledReads::lateToken).toArray(String[]::new);
        return conn.preparedQuery("SELECT pg_notify('" + ChangeNotices.CHANNEL + "', t) FROM unnest($1::text[]) t")
                .execute(io.vertx.mutiny.sqlclient.Tuple.of(tokens)).replaceWithVoid();
    }

    /** Forgets everything (tests). */
    public void clear() {
        held.invalidateAll();
    }
}
