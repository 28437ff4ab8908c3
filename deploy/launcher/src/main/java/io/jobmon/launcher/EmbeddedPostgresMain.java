package io.jobmon.launcher;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * Runs a real PostgreSQL (zonky's bundled binaries) for the local stack until the JVM is stopped.
 *
 * <p>The data directory lives under the state folder ({@code JOBMON_STATE_DIR}, default {@code .jobmon})
 * and survives restarts; the database and role are created when missing. A TERM signal runs zonky's
 * shutdown hook, which stops the postmaster with {@code pg_ctl stop -m fast}.
 *
 * <p>Settings (system property or environment): {@code JOBMON_STATE_DIR}, {@code JOBMON_PG_PORT} (15432),
 * {@code JOBMON_DB_NAME} / {@code JOBMON_DB_USER} / {@code JOBMON_DB_PASSWORD} (all {@code jobmon}),
 * {@code JOBMON_PG_BINARIES} (where the bundled binaries are unpacked, shared by state folders;
 * default {@code <state>/postgres/binaries}).
 */
public final class EmbeddedPostgresMain {

    /** The line ./jobmon waits for in the log before it calls PostgreSQL ready. */
    public static final String READY_MARKER = "JOBMON-POSTGRES-READY";

    private EmbeddedPostgresMain() {
    }

    public static void main(String[] args) throws Exception {
        Path state = Path.of(Env.get("JOBMON_STATE_DIR", ".jobmon")).toAbsolutePath();
        int port = Env.getInt("JOBMON_PG_PORT", 15432);
        String database = Env.get("JOBMON_DB_NAME", "jobmon");
        String user = Env.get("JOBMON_DB_USER", "jobmon");
        String password = Env.get("JOBMON_DB_PASSWORD", "jobmon");

        Path dataDir = state.resolve("postgres/data");
        Path binaries = Path.of(Env.get("JOBMON_PG_BINARIES", state.resolve("postgres/binaries").toString()));
        Files.createDirectories(dataDir);
        Files.createDirectories(binaries);

        EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                .setDataDirectory(dataDir)
                .setCleanDataDirectory(false)
                .setOverrideWorkingDirectory(binaries.toFile())
                .setPort(port)
                .setPGStartupWait(Duration.ofSeconds(60))
                // Loopback only: this is a developer database with trust authentication inside.
                .setServerConfig("listen_addresses", "127.0.0.1")
                // No unix socket: its path would depend on the state folder's length (max ~107 chars).
                .setServerConfig("unix_socket_directories", "")
                .setServerConfig("max_connections", "200")
                .start();

        ensureRoleAndDatabase(postgres, database, user, password);
        System.out.printf("%s postgresql://127.0.0.1:%d/%s user=%s data=%s%n", READY_MARKER, port, database, user, dataDir);
        System.out.flush();

        // Stay up until killed; zonky's shutdown hook stops the postmaster.
        new CountDownLatch(1).await();
    }

    static void ensureRoleAndDatabase(EmbeddedPostgres postgres, String database, String user, String password)
            throws SQLException, IOException {
        try (Connection c = postgres.getPostgresDatabase().getConnection()) {
            if (!exists(c, "SELECT 1 FROM pg_roles WHERE rolname = ?", user)) {
                try (Statement s = c.createStatement()) {
                    s.execute("CREATE ROLE " + identifier(user) + " LOGIN PASSWORD " + literal(password));
                }
            }
            if (!exists(c, "SELECT 1 FROM pg_database WHERE datname = ?", database)) {
                try (Statement s = c.createStatement()) {
                    s.execute("CREATE DATABASE " + identifier(database) + " OWNER " + identifier(user));
                }
            }
        }
        // Services keep one schema each; let the owner create them (PG 15+ no longer grants CREATE on public).
        try (Connection c = postgres.getDatabase("postgres", database).getConnection();
             Statement s = c.createStatement()) {
            s.execute("GRANT ALL ON DATABASE " + identifier(database) + " TO " + identifier(user));
            s.execute("GRANT ALL ON SCHEMA public TO " + identifier(user));
        }
    }

    private static boolean exists(Connection c, String sql, String value) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, value);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    private static String identifier(String name) {
        if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw new IllegalArgumentException("unsupported identifier: " + name);
        }
        return '"' + name + '"';
    }

    private static String literal(String value) {
        return "'" + value.replace("'", "''") + "'";
    }
}
