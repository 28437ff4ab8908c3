package io.jobmon.logs.follow;

import io.jobmon.contracts.http.ApiJson;
import io.jobmon.contracts.http.QueryParameters;
import io.jobmon.contracts.access.Caller;
import io.jobmon.logs.config.LogsConfig;
import io.jobmon.logs.query.ChunkQueries;
import io.jobmon.logs.query.JobLogs;
import io.jobmon.logs.query.LineMatcher;
import io.jobmon.logs.query.LogQuery;
import io.jobmon.logs.query.LogReader;
import io.jobmon.logs.query.Position;
import io.jobmon.logs.query.Scope;
import io.jobmon.logs.query.SearchPool;
import io.jobmon.logs.intake.Times;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code GET /api/v1/jobs/{id}/logs/download}: the selection (the lines endpoint's filters) as a {@code text/plain}
 * attachment, read and written a page at a time (constant memory, any size; a slow client holds the reading, not a
 * buffer), gzip-compressed when the client sends {@code Accept-Encoding: gzip}. One line per log line:
 * {@code <time> [<pod>/<container>] <line>} (system: {@code [<node>/<source>]}).
 */
@ApplicationScoped
public class DownloadRoute {

    /** A page waits for the user's other searches this long at most (a day: as long as it takes). */
    static final long DOWNLOAD_PAGE_WAIT_MILLIS = 24L * 3600 * 1000;

    private static final int PAGE = 2000;
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    private final JobLogs jobLogs;
    private final ChunkQueries chunks;
    private final SearchPool search;
    private final LogsConfig config;

    public DownloadRoute(JobLogs jobLogs, ChunkQueries chunks, SearchPool search, LogsConfig config) {
        this.jobLogs = jobLogs;
        this.chunks = chunks;
        this.search = search;
        this.config = config;
    }

    /** The query parameters a download takes. */
    static final Set<String> PARAMETERS = Set.of("type", "pod", "container", "from", "to", "q", "ignoreCase", "regex");

    void routes(@Observes Router router) {
        router.get("/api/v1/jobs/:id/logs/download").blockingHandler(this::download, false);
    }

    private void download(RoutingContext rc) {
        try {
            QueryParameters.check(rc.queryParams().names(), PARAMETERS);
            String id = rc.pathParam("id");
            LogQuery q = LogQuery.of(Routes.param(rc, "type"), Routes.param(rc, "pod"), Routes.param(rc, "container"),
                    Routes.param(rc, "from"), Routes.param(rc, "to"), Routes.param(rc, "q"), Routes.param(rc, "ignoreCase"),
                    Routes.param(rc, "regex"), null, null, null, null, config);
            Caller caller = Routes.caller(rc);
            JobLogs.Job job = jobLogs.require(caller, id);
            Scope scope = jobLogs.scope(job, q.user(), q.system(), q.pod(), q.container());
            LineMatcher matcher = LineMatcher.of(q.q(), q.ignoreCase(), q.regex(), config.query().maxRegexLength(),
                    config.query().searchDeadline().toMillis());
            LogReader reader = new LogReader(chunks, search.executor(caller));
            HttpServerResponse response = rc.response();
            response.setChunked(true).putHeader("Content-Type", "text/plain; charset=utf-8")
                    .putHeader("Content-Disposition", "attachment; filename=\"" + fileName(job, q) + "\"");
            Body body = new Body(response, acceptsGzip(rc.request().getHeader("Accept-Encoding")));
            Position after = null;
                while (!response.closed()) {
                Position from = after;
                // a page waits for the user's other searches as long as it takes: the download is already under way
                List<LogReader.Found> page = search.run(caller, DOWNLOAD_PAGE_WAIT_MILLIS, () -> JobLogs.retrying(() -> reader.read(
                        new LogReader.Request(scope, q.from(), q.to(), from, true, PAGE, matcher, null))));
                int n = Math.min(page.size(), PAGE);
                StringBuilder out = new StringBuilder(n * 120);
                for (int i = 0; i < n; i++) {
                    line(out, page.get(i));
                }
                if (n > 0) {
                    body.write(out.toString());
                    after = page.get(n - 1).position();
                    awaitDrain(response);
                }
                if (page.size() <= PAGE) {
                    break;
                }
            }
            body.end();
        } catch (RuntimeException e) {
            Routes.fail(rc, e);
        }
    }

    static boolean acceptsGzip(String acceptEncoding) {
        if (acceptEncoding == null) {
            return false;
        }
        for (String part : acceptEncoding.split(",")) {
            String[] f = part.trim().split(";");
            if (f[0].trim().equalsIgnoreCase("gzip") && !(f.length > 1 && f[1].trim().replace(" ", "").equals("q=0"))) {
                return true;
            }
        }
        return false;
    }

    /** The response body, gzip-compressed page by page (sync flush) when the client accepts it. */
    private static final class Body {
        private final HttpServerResponse response;
        private final java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream(64 * 1024);
        private final java.util.zip.GZIPOutputStream gzip;

        Body(HttpServerResponse response, boolean gzip) {
            this.response = response;
            try {
                this.gzip = gzip ? new java.util.zip.GZIPOutputStream(bytes, 64 * 1024, true) : null;
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            if (gzip) {
                response.putHeader("Content-Encoding", "gzip").putHeader("Vary", "Accept-Encoding");
            }
        }

        void write(String text) {
            if (gzip == null) {
                response.write(text);
                return;
            }
            try {
                gzip.write(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
                gzip.flush();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            response.write(io.vertx.core.buffer.Buffer.buffer(bytes.toByteArray()));
            bytes.reset();
        }

        void end() {
            if (response.ended()) {
                return;
            }
            if (gzip != null) {
                try {
                    gzip.finish();
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
                response.end(io.vertx.core.buffer.Buffer.buffer(bytes.toByteArray()));
            } else {
                response.end();
            }
        }
    }

    private static void line(StringBuilder out, LogReader.Found f) {
        out.append(ApiJson.time(Times.instant(f.line().time()))).append(" [");
        if (f.chunk().system()) {
            out.append(f.chunk().node()).append('/').append(f.chunk().container());
        } else {
            out.append(f.chunk().pod()).append('/').append(f.chunk().container());
        }
        out.append("] ").append(f.line().text()).append('\n');
    }

    /** Holds the reading while the client's socket has enough queued: memory stays at about one page. */
    private static void awaitDrain(HttpServerResponse response) {
        if (!response.writeQueueFull()) {
            return;
        }
        CountDownLatch drained = new CountDownLatch(1);
        response.drainHandler(v -> drained.countDown());
        response.closeHandler(v -> drained.countDown());
        try {
            while (response.writeQueueFull() && !response.closed() && !drained.await(1, TimeUnit.SECONDS)) {
                // wait for the client
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** e.g. {@code llama-sft_j-42_user_worker-0_20260713T091000Z.log}: the job's name and id, what, and from when. */
    static String fileName(JobLogs.Job job, LogQuery q) {
        StringBuilder sb = new StringBuilder();
        if (job.info() != null && job.info().name() != null) {
            sb.append(job.info().name()).append('_');
        }
        sb.append(job.id()).append('_').append(q.user() && q.system() ? "all" : q.user() ? "user" : "system");
        if (q.pod() != null) {
            sb.append('_').append(q.pod());
        }
        if (q.container() != null) {
            sb.append('_').append(q.container());
        }
        if (q.from() != Long.MIN_VALUE) {
            sb.append('_').append(STAMP.format(Times.instant(q.from())));
        } else if (job.info() != null && job.info().startedAt() != null) {
            sb.append('_').append(STAMP.format(job.info().startedAt()));
        }
        return sb.toString().replaceAll("[^A-Za-z0-9._-]", "-") + ".log";
    }
}
