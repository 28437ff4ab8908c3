package io.jobmon.contracts.partitions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.contracts.TestSchemas;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Partitions on a real PostgreSQL: two replicas creating the same ones at once, other errors kept, drops by start. */
class PartitionedTableTest {

    static Vertx vertx;
    static Pool replica1;
    static Pool replica2;

    @BeforeAll
    static void database() {
        vertx = Vertx.vertx();
        PgConnectOptions opts = TestSchemas.create(vertx, "partitions_test");
        replica1 = TestSchemas.pool(vertx, opts, 4);
        replica2 = TestSchemas.pool(vertx, opts, 4);
        for (String ddl : List.of(
                "CREATE TABLE event (id BIGINT, created_at TIMESTAMPTZ NOT NULL) PARTITION BY RANGE (created_at)",
                "CREATE TABLE body (day DATE NOT NULL, body BYTEA) PARTITION BY RANGE (day)",
                "CREATE TABLE rollup (start_ms BIGINT NOT NULL) PARTITION BY RANGE (start_ms)")) {
            replica1.query(ddl).execute().await().indefinitely();
        }
    }

    @AfterAll
    static void close() {
        replica1.close().await().indefinitely();
        replica2.close().await().indefinitely();
        vertx.close().await().indefinitely();
    }

    static List<String> partitions(String parent) {
        List<String> out = new ArrayList<>();
        replica1.preparedQuery("SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid"
                + " JOIN pg_class p ON p.oid = i.inhparent WHERE p.relname = $1"
                + " AND p.relnamespace = to_regnamespace(current_schema())::oid ORDER BY 1")
                .execute(io.vertx.mutiny.sqlclient.Tuple.of(parent)).await().indefinitely()
                .forEach(r -> out.add(r.getString(0)));
        return out;
    }

    @Test
    void twoReplicasCreatingTheSamePartitionsAtOnceBothSucceed() {
        String after = "ALTER TABLE %s ALTER COLUMN body SET STORAGE EXTERNAL";
        PartitionedTable a = new PartitionedTable(replica1, "body", PartitionedTable.Period.DAY,
                PartitionedTable::dateBound, after);
        PartitionedTable b = new PartitionedTable(replica2, "body", PartitionedTable.Period.DAY,
                PartitionedTable::dateBound, after);
        LocalDate first = LocalDate.of(2026, 3, 1);
        for (int i = 0; i < 40; i++) {
            LocalDate d = first.plusDays(i);
            Uni.combine().all().unis(a.ensure(d), b.ensure(d), a.ensure(List.of(d, d.plusDays(1))))
                    .discardItems().await().indefinitely();
        }
        List<String> made = partitions("body");
        assertEquals(41, made.size(), made.toString());
        assertEquals("body_p20260301", made.get(0));
        assertEquals("body_p20260410", made.get(40));
        String storage = replica1.query("SELECT a.attstorage::text FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid"
                + " WHERE c.relname = 'body_p20260320' AND a.attname = 'body'").execute().await().indefinitely()
                .iterator().next().getString(0);
        assertEquals("e", storage, "the statements after creation ran");
    }

    @Test
    void aReplicaWhoseCreationMeetsAnotherInFlightSucceedsWhenTheOtherCommits() throws Exception {
        PartitionedTable a = new PartitionedTable(replica1, "event", PartitionedTable.Period.DAY,
                PartitionedTable::timestampBound);
        io.vertx.mutiny.sqlclient.SqlConnection other = replica2.getConnection().await().indefinitely();
        try {
            io.vertx.mutiny.sqlclient.Transaction tx = other.begin().await().indefinitely();
            other.query("CREATE TABLE IF NOT EXISTS event_p20260601 PARTITION OF event FOR VALUES FROM"
                    + " ('2026-06-01T00:00:00Z') TO ('2026-06-02T00:00:00Z')").execute().await().indefinitely();
            java.util.concurrent.CompletableFuture<Void> mine = a.ensure(LocalDate.of(2026, 6, 1))
                    .subscribeAsCompletionStage();
            Thread.sleep(300); // this replica's CREATE now waits for the other's lock on the parent table
            assertFalse(mine.isDone(), "waits for the other replica's transaction");
            tx.commit().await().indefinitely();
            mine.get(10, java.util.concurrent.TimeUnit.SECONDS);
        } finally {
            other.close().await().indefinitely();
        }
        assertTrue(partitions("event").contains("event_p20260601"));
    }

    @Test
    void anyOtherErrorFailsTheCreation() {
        PartitionedTable t = new PartitionedTable(replica1, "event", PartitionedTable.Period.DAY,
                PartitionedTable::timestampBound);
        // a partition under another name already holds the day: PostgreSQL says 42P17 (overlap), not "exists"
        replica1.query("CREATE TABLE odd PARTITION OF event FOR VALUES FROM ('2026-05-01T00:00:00Z')"
                + " TO ('2026-05-03T00:00:00Z')").execute().await().indefinitely();
        Throwable e = assertThrows(PgException.class, () -> t.ensure(LocalDate.of(2026, 5, 2)).await().indefinitely());
        assertFalse(PartitionedTable.createdConcurrently(e), e.getMessage());
        PartitionedTable missing = new PartitionedTable(replica1, "no_such_table", PartitionedTable.Period.DAY,
                PartitionedTable::timestampBound);
        assertThrows(PgException.class, () -> missing.ensure(LocalDate.of(2026, 5, 2)).await().indefinitely());
        t.ensure(LocalDate.of(2026, 5, 3)).await().indefinitely();
        assertTrue(partitions("event").contains("event_p20260503"));
    }

    @Test
    void monthlyPartitionsAreNamedAndDroppedByTheirStart() {
        PartitionedTable t = new PartitionedTable(replica1, "rollup", PartitionedTable.Period.MONTH,
                PartitionedTable::epochMsBound);
        t.ensure(List.of(LocalDate.of(2026, 1, 31), LocalDate.of(2026, 2, 1), LocalDate.of(2026, 2, 27),
                LocalDate.of(2026, 4, 2))).await().indefinitely();
        assertEquals(List.of("rollup_p202601", "rollup_p202602", "rollup_p202604"), partitions("rollup"));
        assertEquals(List.of(LocalDate.of(2026, 1, 1), LocalDate.of(2026, 2, 1), LocalDate.of(2026, 4, 1)),
                t.starts().await().indefinitely());
        replica1.query("INSERT INTO rollup VALUES (" + PartitionedTable.epochMsBound(LocalDate.of(2026, 2, 1)) + ")")
                .execute().await().indefinitely();
        assertEquals(List.of("rollup_p202601"), t.dropBefore(LocalDate.of(2026, 2, 15)).await().indefinitely());
        assertEquals(List.of("rollup_p202602", "rollup_p202604"), partitions("rollup"));
        t.ensure(LocalDate.of(2026, 1, 5)).await().indefinitely();
        assertTrue(partitions("rollup").contains("rollup_p202601"), "a dropped partition is created again when needed");
    }
}
