package io.jobmon.metrics.scrape;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;

/** The scrape targets every replica shares: static ones from configuration, discovered ones per cluster. */
@ApplicationScoped
public class TargetRepository {

    private static final String UPSERT = "INSERT INTO scrape_target (id, url, job, node, cluster, pool, source, seen_at)"
            + " SELECT *, now() FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],"
            + " $7::text[]) ON CONFLICT (id) DO UPDATE SET url = EXCLUDED.url, job = EXCLUDED.job, node = EXCLUDED.node,"
            + " cluster = EXCLUDED.cluster, pool = EXCLUDED.pool, source = EXCLUDED.source, seen_at = now()";

    private final Pool pool;

    public TargetRepository(Pool pool) {
        this.pool = pool;
    }

    /** Makes {@code source}'s targets exactly these: upserts them and deletes the ones it no longer has. */
    public Uni<Void> replace(String source, List<ScrapeTarget> targets) {
        int n = targets.size();
        String[] id = new String[n], url = new String[n], job = new String[n], node = new String[n],
                cluster = new String[n], p = new String[n], src = new String[n];
        for (int i = 0; i < n; i++) {
            ScrapeTarget t = targets.get(i);
            id[i] = t.id();
            url[i] = t.url();
            job[i] = t.job();
            node[i] = t.node();
            cluster[i] = t.cluster();
            p[i] = t.pool();
            src[i] = source;
        }
        return pool.withTransaction(c -> c.preparedQuery(UPSERT).execute(Tuple.tuple().addArrayOfString(id)
                .addArrayOfString(url).addArrayOfString(job).addArrayOfString(node).addArrayOfString(cluster)
                .addArrayOfString(p).addArrayOfString(src))
                .chain(() -> c.preparedQuery("DELETE FROM scrape_target WHERE source = $1 AND NOT id = ANY($2::text[])")
                        .execute(Tuple.of(source, id))))
                .replaceWithVoid();
    }

    public Uni<List<ScrapeTarget>> all() {
        return pool.query("SELECT id, url, job, node, cluster, pool, source FROM scrape_target ORDER BY id").execute()
                .map(rows -> {
                    List<ScrapeTarget> out = new ArrayList<>();
                    for (Row r : rows) {
                        out.add(new ScrapeTarget(r.getString("id"), r.getString("url"), r.getString("job"),
                                r.getString("node"), r.getString("cluster"), r.getString("pool"), r.getString("source")));
                    }
                    return out;
                });
    }
}
