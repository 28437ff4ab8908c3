package io.jobmon.logs.query;

import io.jobmon.logs.attribution.IdentityRepository;
import io.jobmon.logs.attribution.JobIdentity;
import io.jobmon.logs.attribution.JobSystemLines;
import io.jobmon.logs.attribution.OomEvents;
import io.jobmon.logs.attribution.SystemLineAttribution;
import io.jobmon.logs.config.LogsConfig;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Builds a job's view of its nodes' system lines when a read starts: the job's identity (pods, UIDs, container ids,
 * GPU holdings) and the kernel OOM events of its nodes in its window (a keyword search of the nodes' lines for
 * {@link OomEvents#KEYWORDS}: the chunks' filters skip the rest). Worker threads.
 */
@ApplicationScoped
public class JobAttributions {

    /** Lines read at a time per keyword to find OOM events (an event has a few that match). */
    static final int PAGE = 5_000;

    private final IdentityRepository identities;
    private final ChunkQueries queries;
    private final SearchPool search;
    private final LogsConfig config;

    public JobAttributions(IdentityRepository identities, ChunkQueries queries, SearchPool search, LogsConfig config) {
        this.identities = identities;
        this.queries = queries;
        this.search = search;
        this.config = config;
    }

    public JobSystemLines of(String jobId, List<String> nodes, long from, long to) {
        return new JobSystemLines(() -> load(jobId, nodes, from, to), config.attribution().refresh().toNanos());
    }

    private SystemLineAttribution load(String jobId, List<String> nodes, long from, long to) {
        JobIdentity id = identities.load(jobId).await().atMost(ChunkQueries.WAIT);
        return new SystemLineAttribution(id, oomEvents(nodes, from, to), config.attribution().holdingSlack().toNanos());
    }

    private OomEvents oomEvents(List<String> nodes, long from, long to) {
        Scope nodesOnly = new Scope(null, false, true, null, null, nodes, from, to);
        LogReader reader = new LogReader(queries, search.executor());
        List<OomEvents.Line> lines = new ArrayList<>();
        for (String keyword : OomEvents.KEYWORDS) {
            LineMatcher m = LineMatcher.of(keyword, false, null, config.query().maxRegexLength(),
                    config.query().searchDeadline().toMillis());
            Position after = null;
            while (true) {
                Position a = after;
                List<LogReader.Found> found = JobLogs.retrying(() -> reader.read(new LogReader.Request(nodesOnly, from, to, a,
                        true, PAGE, m, null)));
                for (LogReader.Found f : found.subList(0, Math.min(PAGE, found.size()))) {
                    if ("kernel".equals(f.chunk().container())) {
                        lines.add(new OomEvents.Line(f.chunk().node(), f.position().time(), f.line().text()));
                    }
                }
                if (found.size() <= PAGE) {
                    break;
                }
                after = found.get(PAGE - 1).position();
            }
        }
        lines.sort(Comparator.comparingLong(OomEvents.Line::time));
        return OomEvents.of(lines);
    }
}
