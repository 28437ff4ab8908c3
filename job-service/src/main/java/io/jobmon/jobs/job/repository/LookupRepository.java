package io.jobmon.jobs.job.repository;

import io.jobmon.contracts.access.Caller;
import io.jobmon.jobs.job.model.ListQuery;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What the list's filters offer: the tags in use and the projects of the caller's visible jobs. */
@ApplicationScoped
public class LookupRepository {

    /**
     * The jobs of a scope as a SQL condition on {@code j}, its values appended to {@code args}: null scope is every
     * job the caller may see (owned, shared with them, PROJECT-visible in their groups; the tenant for an admin).
     */
    static String scope(ListQuery.Scope scope, Caller caller, List<Object> args) {
        args.add(caller.tenant());
        String base = "j.tenant = $1";
        if (scope == ListQuery.Scope.all || scope == null && caller.isAdmin()) {
            return base;
        }
        args.add(caller.user());
        if (scope == ListQuery.Scope.mine) {
            return base + " AND j.owner = $2";
        }
        if (scope == ListQuery.Scope.shared) {
            return base + " AND j.shares @> ARRAY[$2]::text[] AND j.owner <> $2";
        }
        args.add(caller.groups().toArray(String[]::new));
        return scope == ListQuery.Scope.project
                ? base + " AND j.visibility = 'PROJECT' AND j.project = ANY($3::text[]) AND j.owner <> $2"
                : base + " AND (j.owner = $2 OR j.shares @> ARRAY[$2]::text[] "
                        + "OR (j.visibility = 'PROJECT' AND j.project = ANY($3::text[])))";
    }

    /** Tags of the scope's jobs with how many jobs carry each, most used first. */
    public Uni<Map<String, Long>> tags(SqlClient db, Caller caller, ListQuery.Scope scope, int limit) {
        List<Object> args = new ArrayList<>();
        String where = scope(scope, caller, args);
        args.add(limit);
        String sql = "SELECT t.tag, count(*) AS n FROM job j, unnest(j.tags) AS t(tag) WHERE " + where
                + " GROUP BY t.tag ORDER BY n DESC, t.tag LIMIT $" + args.size();
        return db.preparedQuery(sql).execute(Tuple.from(args)).map(rows -> {
            Map<String, Long> out = new LinkedHashMap<>();
            rows.forEach(r -> out.put(r.getString("tag"), r.getLong("n")));
            return out;
        });
    }

    /** The projects of the tenant's jobs (for admins, who may filter by any). */
    public Uni<List<String>> projects(SqlClient db, String tenant) {
        return db.preparedQuery("SELECT DISTINCT project FROM job WHERE tenant = $1 ORDER BY project LIMIT 1000")
                .execute(Tuple.of(tenant)).map(rows -> JobRepository.list(rows, r -> r.getString("project")));
    }

}
