package io.jobmon.contracts;

import io.jobmon.testsupport.EmbeddedPostgresDb;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.PoolOptions;
import java.net.URI;
import java.time.Duration;
import java.util.UUID;

/** A fresh schema of the embedded PostgreSQL per test class, and pools whose connections work in it. */
public final class TestSchemas {

    private TestSchemas() {
    }

    /** Creates {@code <prefix>_<random>}; returns the options of connections with it as their search path. */
    public static PgConnectOptions create(Vertx vertx, String prefix) {
        EmbeddedPostgresDb.Connection c = EmbeddedPostgresDb.connection();
        URI uri = URI.create(c.url());
        String schema = prefix + "_" + UUID.randomUUID().toString().substring(0, 8);
        PgConnectOptions admin = new PgConnectOptions().setHost(uri.getHost()).setPort(uri.getPort())
                .setDatabase(uri.getPath().substring(1)).setUser(c.user()).setPassword(c.password());
        Pool setup = pool(vertx, admin, 1);
        setup.query("CREATE SCHEMA " + schema).execute().await().atMost(Duration.ofSeconds(30));
        setup.close().await().atMost(Duration.ofSeconds(30));
        return new PgConnectOptions(admin).addProperty("search_path", schema);
    }

    public static Pool pool(Vertx vertx, PgConnectOptions options, int maxSize) {
        return Pool.newInstance(PgBuilder.pool().with(new PoolOptions().setMaxSize(maxSize)).connectingTo(options)
                .using(vertx.getDelegate()).build());
    }
}
