package io.jobmon.events.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.stream.Stream;

/**
 * The CPU the benchmark's PostgreSQL server used (Linux {@code /proc}): its postmaster, the children it reaped and
 * those alive (backends, WAL writer, checkpointer, autovacuum). Less load-dependent than a rate: on a machine
 * shared with other work, CPU per record is the figure to compare between runs. NaN where {@code /proc} cannot
 * tell (another OS, a server on another host).
 */
final class DatabaseCpu {

    /** Kernel clock ticks per second ({@code getconf CLK_TCK}: 100 on Linux' usual builds). */
    private static final double TICKS = 100.0;

    private final long postmaster;

    private DatabaseCpu(long postmaster) {
        this.postmaster = postmaster;
    }

    /** The server of this connection, when it runs on this machine; else a probe that answers NaN. */
    static DatabaseCpu of(Connection db) {
        try (Statement s = db.createStatement(); ResultSet r = s.executeQuery("SELECT pg_backend_pid()")) {
            r.next();
            String[] stat = stat(r.getLong(1));
            return new DatabaseCpu(stat == null ? -1 : Long.parseLong(stat[1]));
        } catch (SQLException e) {
            return new DatabaseCpu(-1);
        }
    }

    /** CPU seconds so far: the postmaster's own and its reaped children's, plus every live child's. */
    double seconds() {
        String[] own = stat(postmaster);
        if (own == null) {
            return Double.NaN;
        }
        long ticks = Long.parseLong(own[11]) + Long.parseLong(own[12]) + Long.parseLong(own[13]) + Long.parseLong(own[14]);
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path p : (Iterable<Path>) procs::iterator) {
                String name = p.getFileName().toString();
                if (!name.chars().allMatch(Character::isDigit)) {
                    continue;
                }
                String[] child = stat(Long.parseLong(name));
                if (child != null && Long.parseLong(child[1]) == postmaster) {
                    ticks += Long.parseLong(child[11]) + Long.parseLong(child[12]);
                }
            }
        } catch (IOException e) {
            return Double.NaN;
        }
        return ticks / TICKS;
    }

    /**
     * The fields of {@code /proc/<pid>/stat} after the command name ({@code [0]} state, {@code [1]} ppid,
     * {@code [11]} utime, {@code [12]} stime, {@code [13]} cutime, {@code [14]} cstime), or null.
     */
    private static String[] stat(long pid) {
        try {
            String s = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return s.substring(s.lastIndexOf(')') + 2).split(" ");
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
