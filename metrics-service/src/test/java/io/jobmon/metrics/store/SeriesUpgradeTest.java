package io.jobmon.metrics.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.jobmon.testsupport.EmbeddedPostgresDb;
import java.io.InputStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

/**
 * V8 on a schema with series rows as V7 left them (ADR 0050): each series keeps its id, its newest compacted sample
 * moves to {@code series_last}, its attribution labels to its label set, and it is still one per (node, metric,
 * label set). On the embedded PostgreSQL.
 */
class SeriesUpgradeTest {

    @Test
    void seriesWrittenBeforeV8KeepTheirIdsNewestSampleAndAttributionLabels() throws Exception {
        EmbeddedPostgresDb.Connection db = EmbeddedPostgresDb.connection();
        String schema = "series_upgrade_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
        try {
            flyway(db, schema, "7").migrate();
            exec(db, "SET search_path TO " + schema + ";"
                    + "INSERT INTO label_set (key_hash, labels) VALUES (decode(md5('{\"gpu\": \"0\", \"pod\": \"p-0\"}'),"
                    + " 'hex'), '{\"gpu\": \"0\", \"pod\": \"p-0\"}'), (decode(md5('{}'), 'hex'), '{}');"
                    + "INSERT INTO series (key_hash, metric, node, label_set_id, counter, gpu, pod, namespace, container,"
                    + " cluster, pool, first_ms, last_ms, last_value) OVERRIDING SYSTEM VALUE VALUES"
                    + " ('\\x01', 'DCGM_FI_DEV_GPU_UTIL', 'n1', 1, false, '0', 'p-0', 'ns', 'main', 'c1', 'a100', 10, 500, 42),"
                    + " ('\\x02', 'DCGM_FI_DEV_PCIE_REPLAY_COUNTER', 'n1', 1, true, '0', 'p-0', 'ns', 'main', 'c1', 'a100', 10,"
                    + " 86400400, 7), ('\\x03', 'node_load1', 'n1', 2, false, NULL, NULL, NULL, NULL, NULL, NULL, 20,"
                    + " 172800020, NULL)");
            flyway(db, schema, null).migrate();
            // exactly for a counter and the GPUs-present metric; for every series, the day of its newest sample
            assertEquals(List.of("1 500 42", "2 86400400 7"),
                    rows(db, "SELECT series_id || ' ' || last_ms || ' ' || coalesce(last_value::text, 'null') FROM "
                            + schema + ".series_last ORDER BY 1"));
            assertEquals(List.of("1 0 p-0 ns main c1 a100", "2 - - - - - -"), rows(db, "SELECT id || ' ' || concat_ws(' ',"
                    + " coalesce(gpu, '-'), coalesce(pod, '-'), coalesce(namespace, '-'), coalesce(container, '-'),"
                    + " coalesce(cluster, '-'), coalesce(pool, '-')) FROM " + schema + ".label_set ORDER BY id"));
            assertEquals(List.of("1 DCGM_FI_DEV_GPU_UTIL n1 1 0", "2 DCGM_FI_DEV_PCIE_REPLAY_COUNTER n1 1 86400000",
                    "3 node_load1 n1 2 172800000"), rows(db, "SELECT concat_ws(' ', id, metric, node, label_set_id, last_day)"
                            + " FROM " + schema + ".series ORDER BY id"));
            SQLException twice = assertThrows(SQLException.class, () -> exec(db, "SET search_path TO " + schema + "; INSERT INTO series (metric, node,"
                    + " label_set_id, counter, first_ms, last_day) VALUES ('node_load1', 'n1', 2, false, 30, 0)"));
            assertEquals("23505", twice.getSQLState(), "one series per (node, metric, label set)");
            exec(db, "SET search_path TO " + schema + "; DELETE FROM series WHERE id = 2");
            assertEquals(List.of("1"), rows(db, "SELECT series_id::text FROM " + schema + ".series_last ORDER BY 1"));
        } finally {
            exec(db, "DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        }
    }

    /** The service's Flyway settings (its locations, contracts' among them, out of order) on a schema of its own. */
    private static Flyway flyway(EmbeddedPostgresDb.Connection db, String schema, String target) throws Exception {
        Properties app = new Properties();
        try (InputStream in = SeriesUpgradeTest.class.getClassLoader().getResourceAsStream("application.properties")) {
            app.load(in);
        }
        String[] locations = Arrays.stream(app.getProperty("quarkus.flyway.locations").split(","))
                .map(l -> "classpath:" + l.trim()).toArray(String[]::new);
        var config = Flyway.configure().dataSource(db.jdbcUrl(), db.user(), db.password()).schemas(schema)
                .createSchemas(true).locations(locations).outOfOrder(true);
        return (target == null ? config : config.target(target)).load();
    }

    private static void exec(EmbeddedPostgresDb.Connection db, String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
                Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    private static List<String> rows(EmbeddedPostgresDb.Connection db, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
                Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}
