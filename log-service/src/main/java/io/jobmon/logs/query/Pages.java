package io.jobmon.logs.query;

import io.jobmon.logs.config.LogsConfig;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;

/**
 * One page of lines of a scope, as every line endpoint answers it (a job's lines, a node's): forward or backward from
 * the cursor, or the last {@code tail} lines in time order, with the cursor to go on from.
 */
final class Pages {

    private Pages() {
    }

    static LogPage read(ChunkQueries queries, ExecutorService executor, LogsConfig config, Scope scope, LogQuery lq,
            LogPage.Retention retention) {
        LineMatcher matcher = LineMatcher.of(lq.q(), lq.ignoreCase(), lq.regex(), config.query().maxRegexLength(),
                config.query().searchDeadline().toMillis());
        boolean forward = lq.tail() == null && lq.forward();
        int n = lq.tail() != null ? lq.tail() : lq.limit();
        LogReader reader = new LogReader(queries, executor);
        List<LogReader.Found> found = JobLogs.retrying(() -> reader.read(new LogReader.Request(scope, lq.from(), lq.to(),
                lq.cursor(), forward, n, matcher, null)));
        boolean more = found.size() > n;
        List<LogLine> items = new ArrayList<>(Math.min(found.size(), n));
        for (int i = 0; i < Math.min(found.size(), n); i++) {
            items.add(LogReader.item(found.get(i)));
        }
        String next = more ? items.get(items.size() - 1).cursor() : null;
        if (lq.tail() != null) {
            Collections.reverse(items);
            next = more ? items.get(0).cursor() : null; // continue backward from the oldest line shown
        }
        return new LogPage(items, next, retention);
    }
}
