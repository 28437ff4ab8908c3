package io.jobmon.metrics.query;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.jobmon.metrics.config.MetricsConfig;
import io.jobmon.metrics.jobs.JobInfo;
import io.jobmon.metrics.store.ChangeNotices;
import io.jobmon.metrics.store.SeriesRef;
import io.jobmon.metrics.store.SeriesStores;
import io.jobmon.metrics.store.SettledReads;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.TreeSet;

/**
 * A job chart's answer as the bytes sent, and in {@code prometheus} mode kept in this replica for the next call of the
 * same chart (ADR 0056) while nothing it depends on can change: the job's view is the same ({@link JobViews}), the
 * whole range lies before the settled line (ADR 0044), no {@code late:<node>} notice of its nodes was heard since, and
 * notices are heard at all. The caller's access is checked before ({@link JobMetricsResource}): kept bytes never
 * leave without it. Bounded by bytes; per replica. Every answer carries an {@code ETag} of its bytes.
 */
@ApplicationScoped
public class KeptCharts {

    /** What the kept answers may take. */
    static final long MAX_BYTES = 32L << 20;
    /** The least an answer counts for: at most {@code MAX_BYTES / MIN_WEIGHT} answers are kept. */
    static final int MIN_WEIGHT = 16 << 10;

    /** A chart's body (JSON) and its entity tag's value (unquoted). */
    public record Answer(byte[] body, String etag) {
    }

    private record Kept(Answer answer, JobViews.View view, long seq, List<String> tokens) {
    }

    private final JobMetricsService charts;
    private final ObjectMapper mapper;
    private final ChangeNotices notices;
    private final SettledReads settled;
    private final boolean external;
    private final Cache<String, Kept> kept = Caffeine.newBuilder().maximumWeight(MAX_BYTES)
            .weigher((String k, Kept v) -> Math.max(MIN_WEIGHT, v.answer().body().length + 2 * k.length())).build();

    public KeptCharts(JobMetricsService charts, ObjectMapper mapper, ChangeNotices notices, SettledReads settled,
            MetricsConfig config) {
        this.charts = charts;
        this.mapper = mapper;
        this.notices = notices;
        this.settled = settled;
        this.external = SeriesStores.external(config);
    }

    /** The chart of a job whose view the caller may see (checked before): kept bytes when still the answer. */
    public Uni<Answer> answer(String jobId, JobViews.View view, JobInfo job, ChartParams params, Instant now) {
        Instant[] range = charts.range(job, params, now);
        ResolutionChoice rc = charts.choose(params, range[0].toEpochMilli(), range[1].toEpochMilli(), now.toEpochMilli());
        String key = key(jobId, params, range, rc);
        Kept k = kept.getIfPresent(key);
        if (k != null && k.view() == view && notices.listening()
                && k.tokens().stream().noneMatch(t -> notices.changedSince(k.seq(), t))) {
            return Uni.createFrom().item(k.answer());
        }
        List<String> tokens = keepable(view, params, range[1].toEpochMilli(), now.toEpochMilli());
        // as a settled read: counts as begun a moment before (an engine shows a written sample a moment after its 2xx)
        long seq = tokens == null ? Long.MIN_VALUE : settled.trustedSeq(now.toEpochMilli());
        return charts.chart(job, view.lookups(), params, now).map(response -> {
            Answer a = answer(response);
            if (seq != Long.MIN_VALUE) {
                kept.put(key, new Kept(a, view, seq, tokens));
            }
            return a;
        });
    }

    /**
     * The notices that would change a chart of this view ending at {@code toMs}, or null when it is not kept: not in
     * prometheus mode, not all settled, Xid events (read from the database, no notice), a series without a node.
     */
    List<String> keepable(JobViews.View view, ChartParams params, long toMs, long nowMs) {
        if (!external || !notices.listening() || toMs > settled.settledLine(nowMs)
                || params.metrics().stream().anyMatch(e -> "xid".equals(e.special()))) {
            return null;
        }
        TreeSet<String> nodes = new TreeSet<>(Arrays.asList(view.lookups().nodes()));
        for (SeriesRef s : view.lookups().candidates()) {
            if (s.node() == null || s.node().isEmpty()) {
                return null;
            }
            nodes.add(s.node());
        }
        return nodes.stream().map(SettledReads::lateToken).toList();
    }

    /** Everything the answer depends on besides the view: the job, the metrics in order, range, step, grouping. */
    static String key(String jobId, ChartParams params, Instant[] range, ResolutionChoice rc) {
        StringBuilder b = new StringBuilder(jobId).append('\n');
        params.metrics().forEach(e -> b.append(e.name()).append(','));
        return b.append('\n').append(range[0].toEpochMilli()).append('\n').append(range[1].toEpochMilli()).append('\n')
                .append(rc.source()).append('/').append(rc.stepMs()).append('\n').append(params.groupBy()).append('\n')
                .append(params.aggregation()).toString();
    }

    Answer answer(Chart.Response response) {
        try {
            byte[] body = mapper.writeValueAsBytes(response);
            return new Answer(body, etag(body));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A strong entity tag's value (unquoted): the first 128 bits of the body's SHA-256. */
    static String etag(byte[] body) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(body);
            return Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(d, 16));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Whether {@code If-None-Match} names this tag ({@code *}, a list, weak tags compared weakly). */
    static boolean matches(String ifNoneMatch, String etag) {
        if (ifNoneMatch == null || ifNoneMatch.isBlank()) {
            return false;
        }
        for (String t : ifNoneMatch.split(",")) {
            String tag = t.trim();
            if (tag.startsWith("W/")) {
                tag = tag.substring(2);
            }
            if (tag.equals("*") || tag.length() == etag.length() + 2 && tag.startsWith("\"") && tag.endsWith("\"")
                    && tag.regionMatches(1, etag, 0, etag.length())) {
                return true;
            }
        }
        return false;
    }

    /** How many answers are kept (tests). */
    long size() {
        kept.cleanUp();
        return kept.estimatedSize();
    }

    /** Forgets every kept answer (tests). */
    void clear() {
        kept.invalidateAll();
    }
}
