package io.jobmon.jobs.job.repository;

import io.jobmon.contracts.access.Caller;
import io.jobmon.jobs.job.model.JobStats;
import io.jobmon.jobs.job.model.ListQuery.Scope;
import io.jobmon.jobs.support.Times;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Aggregates over the jobs of a scope submitted in a time range. */
@ApplicationScoped
public class JobStatsRepository {

    private final Pool pool;

    public JobStatsRepository(Pool pool) {
        this.pool = pool;
    }

    public Uni<JobStats> stats(Caller caller, Scope scope, Instant from, Instant to) {
        String where = "j.tenant = $1 AND j.submitted_at >= $2 AND j.submitted_at < $3" + switch (scope) {
            case mine -> " AND j.owner = $4";
            case shared -> " AND j.shares @> ARRAY[$4]::text[] AND j.owner <> $4";
            case project -> " AND j.visibility = 'PROJECT' AND j.project = ANY($5::text[]) AND j.owner <> $4";
            case all -> " AND $4::text IS NOT NULL";
        };
        Tuple args = Tuple.of(caller.tenant(), Times.db(from), Times.db(to), caller.user());
        if (scope == Scope.project) {
            args.addValue(caller.groups().toArray(String[]::new));
        }
        Uni<Map<String, Long>> byStatus = pool.preparedQuery("SELECT j.status, count(*) AS n FROM job j WHERE " + where
                + " GROUP BY 1 ORDER BY 1").execute(args).map(rows -> {
                    Map<String, Long> out = new LinkedHashMap<>();
                    rows.forEach(r -> out.put(r.getString("status"), r.getLong("n")));
                    return out;
                });
        Uni<Double[]> queue = pool.preparedQuery("SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY q) AS p50, "
                + "percentile_cont(0.95) WITHIN GROUP (ORDER BY q) AS p95 FROM (SELECT extract(epoch FROM "
                + "(j.started_at - j.submitted_at))::float8 AS q FROM job j WHERE " + where
                + " AND j.started_at IS NOT NULL) s").execute(args).map(rows -> {
                    Row r = rows.iterator().next();
                    return new Double[] {r.getDouble("p50"), r.getDouble("p95")};
                });
        Uni<List<JobStats.ReasonCount>> reasons = pool.preparedQuery("SELECT coalesce(j.failure_reason, j.reason, 'unknown') "
                + "AS reason, count(*) AS n FROM job j WHERE " + where + " AND j.status IN ('FAILED', 'ABNORMAL') "
                + "GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 10").execute(args).map(rows -> {
                    List<JobStats.ReasonCount> out = new ArrayList<>();
                    rows.forEach(r -> out.add(new JobStats.ReasonCount(r.getString("reason"), r.getLong("n"))));
                    return out;
                });
        return Uni.combine().all().unis(byStatus, queue, reasons).asTuple().map(t -> new JobStats(scope.name(), from,
                to, t.getItem1().values().stream().mapToLong(Long::longValue).sum(), t.getItem1(), t.getItem2()[0],
                t.getItem2()[1], t.getItem3()));
    }
}
