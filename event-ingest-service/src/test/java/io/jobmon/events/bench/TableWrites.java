package io.jobmon.events.bench;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.TreeMap;

/**
 * Rows written per table ({@code pg_stat_user_tables}: inserted, updated, of them in place (HOT), deleted), the day
 * partitions of {@code event} summed as {@code event}. Two snapshots around the measured phase, divided by its
 * records: what PostgreSQL writes per raw record.
 */
final class TableWrites {

    private final Map<String, long[]> rows;

    private TableWrites(Map<String, long[]> rows) {
        this.rows = rows;
    }

    static TableWrites of(Connection db) {
        Map<String, long[]> out = new TreeMap<>();
        String sql = "SELECT relname, n_tup_ins, n_tup_upd, n_tup_hot_upd, n_tup_del FROM pg_stat_user_tables"
                + " WHERE schemaname = 'events'";
        try (Statement s = db.createStatement(); ResultSet r = s.executeQuery(sql)) {
            while (r.next()) {
                String table = r.getString(1).matches("event_p\\d{8}") ? "event" : r.getString(1);
                long[] sum = out.computeIfAbsent(table, k -> new long[4]);
                for (int i = 0; i < 4; i++) {
                    sum[i] += r.getLong(i + 2);
                }
            }
        } catch (SQLException e) {
            return new TableWrites(Map.of());
        }
        return new TableWrites(out);
    }

    /** One line per table written since {@code before}: rows per raw record, per kind. */
    String since(TableWrites before, long records) {
        StringBuilder s = new StringBuilder("rows written per record (inserted / updated, of them in place / deleted):");
        rows.forEach((table, now) -> {
            long[] was = before.rows.getOrDefault(table, new long[4]);
            long[] d = new long[4];
            long any = 0;
            for (int i = 0; i < 4; i++) {
                d[i] = now[i] - was[i];
                any += d[i];
            }
            if (any > 0) {
                s.append(String.format("%n  %-16s %.4f / %.4f, %.4f / %.4f", table, (double) d[0] / records,
                        (double) d[1] / records, (double) d[2] / records, (double) d[3] / records));
            }
        });
        return s.toString();
    }
}
