package io.jobmon.metrics;

import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.Duration;

/** Small reads of the store for assertions. */
public final class Sql {

    private Sql() {
    }

    public static long count(Pool pool, String sql, Object... args) {
        Row r = pool.preparedQuery(sql).execute(Tuple.from(args)).await().atMost(Duration.ofSeconds(10)).iterator().next();
        Object v = r.getValue(0);
        return v == null ? 0 : ((Number) v).longValue();
    }
}
