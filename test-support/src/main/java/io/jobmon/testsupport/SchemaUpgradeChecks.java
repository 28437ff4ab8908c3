package io.jobmon.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.stream.Stream;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.junit.jupiter.api.Test;

/**
 * A schema migrated by the migrations as they shipped (before contracts owned {@code job_access},
 * {@code consumer_offset} and {@code outbox}) upgrades with no manual step, and ends with the same tables, columns,
 * indexes, constraints, triggers and history checksums as a fresh install (ADR 0014). The shipped texts of the
 * migrations that changed are the service's test resources {@code db/shipped/}; the Flyway settings are the
 * service's own ({@code quarkus.flyway.locations}, {@code out-of-order}). On the embedded PostgreSQL.
 */
public abstract class SchemaUpgradeChecks {

    @Test
    void aSchemaMigratedByTheShippedMigrationsUpgradesToTheSameSchemaAsAFreshInstall() throws Exception {
        EmbeddedPostgresDb.Connection server = EmbeddedPostgresDb.connection();
        String id = UUID.randomUUID().toString().replace("-", "").substring(0, 10);
        String upgraded = "upgraded_" + id;
        String fresh = "fresh_" + id;
        Path shipped = shippedMigrations();
        // A database of its own: extensions (pg_trgm) are per database, never shared with a running service's.
        String database = "schema_upgrade_" + id;
        execute(server, "CREATE DATABASE " + database);
        EmbeddedPostgresDb.Connection db = new EmbeddedPostgresDb.Connection(
                server.url().replaceFirst("/[^/?]*(\\?|$)", "/" + database + "$1"), server.user(), server.password());
        try {
            base(db, upgraded).locations("filesystem:" + shipped).load().migrate();
            current(db, upgraded).load().migrate();
            current(db, upgraded).load().validate();
            current(db, fresh).load().migrate();

            List<String> fromUpgrade = describe(db, upgraded, fresh);
            assertFalse(fromUpgrade.isEmpty());
            assertEquals(describe(db, fresh, upgraded), fromUpgrade);
        } finally {
            execute(server, "DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
        }
    }

    private static FluentConfiguration base(EmbeddedPostgresDb.Connection db, String schema) {
        return Flyway.configure().dataSource(db.jdbcUrl(), db.user(), db.password())
                .schemas(schema).createSchemas(true);
    }

    /** The service's own settings: its locations, contracts' among them, out of order. */
    private static FluentConfiguration current(EmbeddedPostgresDb.Connection db, String schema) throws IOException {
        Properties app = new Properties();
        try (InputStream in = resource("application.properties").openStream()) {
            app.load(in);
        }
        String[] locations = Arrays.stream(app.getProperty("quarkus.flyway.locations", "db/migration").split(","))
                .map(l -> "classpath:" + l.trim()).toArray(String[]::new);
        return base(db, schema).locations(locations)
                .outOfOrder(Boolean.parseBoolean(app.getProperty("quarkus.flyway.out-of-order", "false")));
    }

    /** Today's versioned migrations with the changed ones as they shipped (no callback: they had none). */
    private static Path shippedMigrations() throws IOException, URISyntaxException {
        Path dir = Files.createTempDirectory("shipped-migrations");
        dir.toFile().deleteOnExit();
        copy(Paths.get(resource("db/migration").toURI()), dir, true);
        copy(Paths.get(resource("db/shipped").toURI()), dir, false);
        return dir;
    }

    private static void copy(Path from, Path to, boolean versionedOnly) throws IOException {
        try (Stream<Path> files = Files.list(from)) {
            for (Path f : files.toList()) {
                if (!versionedOnly || f.getFileName().toString().startsWith("V")) {
                    Files.copy(f, to.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                    to.resolve(f.getFileName()).toFile().deleteOnExit();
                }
            }
        }
    }

    private static URL resource(String name) {
        URL url = Thread.currentThread().getContextClassLoader().getResource(name);
        if (url == null) {
            throw new IllegalStateException("no " + name + " on the class path");
        }
        return url;
    }

    /** Every table's columns, indexes, constraints and triggers, and the history's checksums, schema name removed. */
    private static List<String> describe(EmbeddedPostgresDb.Connection db, String schema, String other)
            throws SQLException {
        String s = "'" + schema + "'";
        List<String> names = List.of(schema, other);
        List<String> out = new ArrayList<>();
        query(db, names, out, "SELECT 'column ' || table_name || '.' || column_name || ' ' || data_type || ' '"
                + " || is_nullable || ' ' || coalesce(column_default, '') FROM information_schema.columns"
                + " WHERE table_schema = " + s + " ORDER BY 1");
        query(db, names, out, "SELECT 'index ' || tablename || ' ' || indexname || ' ' || indexdef FROM pg_indexes"
                + " WHERE schemaname = " + s + " ORDER BY 1");
        query(db, names, out, "SELECT 'constraint ' || conrelid::regclass || ' ' || conname || ' '"
                + " || pg_get_constraintdef(oid) FROM pg_constraint WHERE connamespace = " + s + "::regnamespace"
                + " ORDER BY 1");
        query(db, names, out, "SELECT 'trigger ' || event_object_table || ' ' || trigger_name || ' '"
                + " || event_manipulation || ' ' || action_statement FROM information_schema.triggers"
                + " WHERE trigger_schema = " + s + " ORDER BY 1");
        query(db, names, out, "SELECT 'migration ' || version || ' ' || checksum || ' ' || success FROM "
                + schema + ".flyway_schema_history WHERE version IS NOT NULL ORDER BY 1");
        return out;
    }

    /** Each row with the schemas' names taken out (an extension's operator class is qualified by its schema). */
    private static void query(EmbeddedPostgresDb.Connection db, List<String> schemas, List<String> out, String sql)
            throws SQLException {
        try (java.sql.Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
                Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                String row = rs.getString(1);
                for (String schema : schemas) {
                    row = row.replace("\"" + schema + "\".", "").replace(schema + ".", "");
                }
                out.add(row);
            }
        }
    }

    private static void execute(EmbeddedPostgresDb.Connection db, String sql) {
        try (java.sql.Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
                Statement st = c.createStatement()) {
            st.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }
}
