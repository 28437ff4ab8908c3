package io.jobmon.logs.follow;

import io.jobmon.contracts.http.QueryParameters;
import io.jobmon.contracts.access.Caller;
import io.jobmon.contracts.http.StreamTickets;
import io.jobmon.contracts.i18n.Text;
import io.jobmon.contracts.problem.ApiException;
import io.jobmon.logs.config.LogsConfig;
import io.jobmon.logs.query.ChunkQueries;
import io.jobmon.logs.query.JobLogs;
import io.jobmon.logs.query.LineMatcher;
import io.jobmon.logs.query.LogQuery;
import io.jobmon.logs.query.LogReader;
import io.jobmon.logs.query.Scope;
import io.jobmon.logs.query.SearchPool;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code GET /api/v1/jobs/{id}/logs/stream}: follow a job's log as Server-Sent Events. Without {@code Last-Event-ID}
 * it sends the last {@code tail} lines (default 100) and then every new line; with it (browsers send it when they
 * reconnect) it goes on exactly after the last event received. Filters as the lines endpoint ({@code type},
 * {@code pod}, {@code container}, {@code q}, {@code ignoreCase}, {@code regex}). A user may have
 * {@code follow.per-user-limit} follows open (429 problem beyond).
 */
@ApplicationScoped
public class FollowRoute {

    private final JobLogs jobLogs;
    private final FollowQueries follows;
    private final ChunkQueries chunks;
    private final SearchPool search;
    private final FollowLimiter limiter;
    private final StreamTicketStore tickets;
    private final LogsConfig config;
    private final AtomicInteger open = new AtomicInteger();

    public FollowRoute(JobLogs jobLogs, FollowQueries follows, ChunkQueries chunks, SearchPool search, FollowLimiter limiter,
            StreamTicketStore tickets, LogsConfig config, MeterRegistry registry) {
        this.tickets = tickets;
        this.jobLogs = jobLogs;
        this.follows = follows;
        this.chunks = chunks;
        this.search = search;
        this.limiter = limiter;
        this.config = config;
        registry.gauge("jobmon.logs.follows.open", open);
    }

    void routes(@Observes Router router) {
        router.get("/api/v1/jobs/:id/logs/stream").handler(this::follow);
    }

    /**
     * The query parameters a follow takes ({@code lastEventId}: for an EventSource that cannot send Last-Event-ID;
     * {@code ticket}: a stream ticket in place of the token, ADR 0027).
     */
    static final Set<String> PARAMETERS = Set.of("type", "pod", "container", "q", "ignoreCase", "regex", "tail",
            "lastEventId", StreamTickets.PARAM);

    private record Prepared(Scope scope, LogQuery query, UUID session, FollowCursor resume, Integer tail, Caller caller) {
    }

    private void follow(RoutingContext rc) {
        FollowSlot slot = new FollowSlot(rc, id -> {
            open.decrementAndGet();
            limiter.close(id).subscribe().with(v -> { }, e -> { });
        });
        rc.vertx().executeBlocking(() -> prepare(rc, slot), false).onComplete(ar -> {
            if (ar.failed()) {
                Routes.fail(rc, ar.cause());
                slot.end();
                return;
            }
            if (slot.gone()) {
                return; // the client went meanwhile: its place is already back
            }
            start(rc, ar.result(), slot);
        });
    }

    private Prepared prepare(RoutingContext rc, FollowSlot slot) {
        QueryParameters.check(rc.queryParams().names(), PARAMETERS);
        String id = rc.pathParam("id");
        LogQuery q = LogQuery.of(Routes.param(rc, "type"), Routes.param(rc, "pod"), Routes.param(rc, "container"), null,
                null, Routes.param(rc, "q"), Routes.param(rc, "ignoreCase"), Routes.param(rc, "regex"),
                Routes.param(rc, "tail"), null, null, null, config);
        LineMatcher.of(q.q(), q.ignoreCase(), q.regex(), config.query().maxRegexLength(), 1000); // checks the regex
        // a browser's EventSource: the ticket stands for the caller who asked for it, once (ADR 0027)
        Caller caller = StreamTickets.isTicketFollow(rc) ? tickets.redeem(rc.queryParam(StreamTickets.PARAM).get(0), id)
                : Routes.caller(rc);
        JobLogs.Job job = jobLogs.require(caller, id);
        Scope scope = jobLogs.scope(job, q.user(), q.system(), q.pod(), q.container());
        String last = rc.request().getHeader("Last-Event-ID");
        if (last == null) {
            last = Routes.param(rc, "lastEventId");
        }
        FollowCursor resume = FollowCursor.parse(last);
        int limit = config.follow().perUserLimit();
        UUID session = limiter.open(caller.tenant(), caller.user(), limit).await().atMost(java.time.Duration.ofSeconds(10));
        if (session == null) {
            rc.response().putHeader("Retry-After", "30");
            throw ApiException.of(429, "too-many-follows", Text.of("logs.too-many-follows", limit));
        }
        open.incrementAndGet();
        slot.hold(session);
        return new Prepared(scope, q, session, resume, q.tail(), caller);
    }

    private void start(RoutingContext rc, Prepared p, FollowSlot slot) {
        var response = rc.response();
        response.setStatusCode(200).setChunked(true)
                .putHeader("Content-Type", "text/event-stream; charset=utf-8")
                .putHeader("Cache-Control", "no-cache, no-transform")
                .putHeader("X-Accel-Buffering", "no");
        response.write(": following " + rc.pathParam("id") + "\nretry: 2000\n\n");
        LogQuery q = p.query();
        FollowCursor cursor = p.resume() != null ? p.resume() : FollowCursor.empty();
        FollowSession session = new FollowSession(rc.vertx(), response, p.scope(),
                () -> LineMatcher.of(q.q(), q.ignoreCase(), q.regex(), config.query().maxRegexLength(),
                        config.query().searchDeadline().toMillis()),
                follows, chunks, config.follow().pollInterval().toMillis(), config.follow().heartbeat().toNanos(), cursor,
                p.resume() != null);
        slot.attach(session);
        String job = rc.pathParam("id");
        session.endWhen(() -> follows.ended(job, config.follow().endGrace()));
        if (p.resume() != null) {
            session.start();
            return;
        }
        rc.vertx().executeBlocking(() -> {
            FollowCursor now = follows.now(p.scope());
            int n = p.tail() == null ? config.follow().initialTail() : p.tail();
            LineMatcher m = LineMatcher.of(q.q(), q.ignoreCase(), q.regex(), config.query().maxRegexLength(),
                    config.query().searchDeadline().toMillis());
            LogReader reader = new LogReader(chunks, search.executor(p.caller()));
            List<LogReader.Found> tail = new ArrayList<>(search.run(p.caller(), () -> JobLogs.retrying(() -> reader.read(
                    new LogReader.Request(p.scope(), Long.MIN_VALUE, Long.MAX_VALUE, null, false, n, m,
                            pos -> !now.after(pos.partition(), pos.offset(), pos.sub()))))));
            if (tail.size() > n) {
                tail = tail.subList(0, n);
            }
            Collections.reverse(tail);
            session.writeTail(tail, now);
            return now;
        }, false).onComplete(ar -> {
            if (ar.failed()) {
                Routes.fail(rc, ar.cause());
                slot.end();
                return;
            }
            session.resumeFrom(ar.result());
            session.start();
        });
    }
}
