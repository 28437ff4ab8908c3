package io.jobmon.testsupport;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/** Gives a {@code @QuarkusTest} a real PostgreSQL ({@link EmbeddedPostgresDb}) for both JDBC (Flyway) and reactive access. */
public class PostgresTestResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        EmbeddedPostgresDb.Connection c = EmbeddedPostgresDb.connection();
        return Map.of(
                "quarkus.datasource.jdbc.url", c.jdbcUrl(),
                "quarkus.datasource.reactive.url", c.url(),
                "quarkus.datasource.username", c.user(),
                "quarkus.datasource.password", c.password());
    }

    @Override
    public void stop() {
        // shared by every test of the JVM; stopped by a shutdown hook
    }
}
