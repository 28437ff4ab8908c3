package io.jobmon.logs.query;

import io.jobmon.contracts.access.Caller;
import io.jobmon.contracts.access.Permission;
import io.jobmon.contracts.i18n.Text;
import io.jobmon.contracts.problem.ApiException;
import io.jobmon.contracts.readmodel.JobGuard;
import io.jobmon.logs.config.LogsConfig;
import io.jobmon.logs.intake.Times;
import io.jobmon.logs.jobs.JobInfo;
import io.jobmon.logs.jobs.JobRepository;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * What every log endpoint does first: the access rule (the job's logs permission; 404 for a job the caller may not
 * see), the retention check (410 once the job's logs are gone), and the scope of the selection: the job's user
 * streams, and of the system streams of its nodes during its run the lines that are the job's ({@link
 * JobAttributions}). Worker threads only.
 */
@ApplicationScoped
public class JobLogs {

    /** System lines this long after a job's end still show with it (the kubelet tearing its pods down). */
    static final Duration SYSTEM_AFTER_END = Duration.ofMinutes(10);
    /** ... and this long before its submission. */
    static final Duration SYSTEM_BEFORE_START = Duration.ofMinutes(1);

    /** A job the caller may read, with what is known of it (null info: no snapshot beyond access yet). */
    public record Job(String id, JobInfo info, LogPage.Retention retention) {
    }

    private final JobGuard guard;
    private final JobRepository jobs;
    private final ChunkQueries queries;
    private final LogsConfig config;
    private final JobAttributions attributions;

    public JobLogs(JobGuard guard, JobRepository jobs, ChunkQueries queries, LogsConfig config, JobAttributions attributions) {
        this.attributions = attributions;
        this.guard = guard;
        this.jobs = jobs;
        this.queries = queries;
        this.config = config;
    }

    public Job require(Caller caller, String jobId) {
        guard.require(caller, jobId, Permission.READ_LOGS).await().atMost(ChunkQueries.WAIT);
        JobInfo info = jobs.find(jobId).await().atMost(ChunkQueries.WAIT).orElse(null);
        int days = info == null ? config.retention().days() : retentionDays(info.tenant());
        if (info != null && info.expiredAt() != null) {
            throw info.finishedAt() == null
                    ? ApiException.of(410, "retention-expired", Text.of("logs.gone", jobId, info.expiredAt()))
                    : ApiException.of(410, "retention-expired", Text.of("logs.gone-after", jobId, info.expiredAt(),
                            days, info.finishedAt()));
        }
        Instant until = info == null || info.finishedAt() == null ? null : info.finishedAt().plus(Duration.ofDays(days));
        return new Job(jobId, info, new LogPage.Retention(days, until));
    }

    public int retentionDays(String tenant) {
        return config.retention().tenants().getOrDefault(tenant, config.retention().days());
    }

    public Scope scope(Job job, boolean user, boolean system, String pod, String container) {
        List<String> nodes = List.of();
        long from = Long.MIN_VALUE;
        long to = Long.MAX_VALUE;
        if (system) {
            Set<String> n = new LinkedHashSet<>();
            if (pod == null && job.info() != null) {
                n.addAll(job.info().nodes());
            }
            ChunkQueries.UserLines lines = queries.userLines(job.id(), pod);
            n.addAll(lines.nodes());
            nodes = List.copyOf(n);
            JobInfo i = job.info();
            if (i != null) {
                Instant start = i.submittedAt() != null ? i.submittedAt() : i.startedAt();
                from = start == null ? Long.MIN_VALUE : Times.nanos(start.minus(SYSTEM_BEFORE_START));
                to = i.finishedAt() == null ? Long.MAX_VALUE : Times.nanos(i.finishedAt().plus(SYSTEM_AFTER_END));
                // The job's own lines tell when it ran by its nodes' clocks, which need not agree with jobmon's (and a
                // replayed bundle's lines come from before its submission): the window also covers them.
                long margin = Times.nanos(Instant.EPOCH.plus(SYSTEM_BEFORE_START));
                if (!lines.nodes().isEmpty()) {
                    from = Math.min(from, lines.first() - margin);
                    to = to == Long.MAX_VALUE ? to : Math.max(to, lines.last() + Times.nanos(Instant.EPOCH.plus(SYSTEM_AFTER_END)));
                }
            }
        }
        boolean sys = system && !nodes.isEmpty();
        // of the nodes' system lines only those that are the job's (its pods, GPUs it held, the whole node)
        return new Scope(job.id(), user, sys, pod, container, nodes, from, to,
                sys ? attributions.of(job.id(), nodes, from, to) : null);
    }

    /** Runs a read, again from the index if a chunk moved underneath it (compaction, expiry). */
    public static <T> T retrying(Supplier<T> read) {
        for (int attempt = 1;; attempt++) {
            try {
                return read.get();
            } catch (LogReader.Moved e) {
                if (attempt == 5) {
                    throw new IllegalStateException("chunks kept moving while reading");
                }
            }
        }
    }
}
