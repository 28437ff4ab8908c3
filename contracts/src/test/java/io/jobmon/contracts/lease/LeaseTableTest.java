package io.jobmon.contracts.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.contracts.TestSchemas;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Leases on a real PostgreSQL: one holder at a time, renewal, expiry, release. */
class LeaseTableTest {

    static final Duration T = Duration.ofSeconds(10);
    static Vertx vertx;
    static Pool pool;
    static LeaseTable leases;

    @BeforeAll
    static void database() {
        vertx = Vertx.vertx();
        pool = TestSchemas.pool(vertx, TestSchemas.create(vertx, "lease_test"), 4);
        pool.query("CREATE TABLE some_lease (target TEXT PRIMARY KEY, holder TEXT NOT NULL, expires_at TIMESTAMPTZ NOT NULL)")
                .execute().await().atMost(T);
        leases = new LeaseTable(pool, "some_lease", "target");
    }

    @AfterAll
    static void close() {
        pool.close().await().atMost(T);
        vertx.close().await().atMost(T);
    }

    @BeforeEach
    void empty() {
        pool.query("DELETE FROM some_lease").execute().await().atMost(T);
    }

    @Test
    void oneHolderAtATimeUntilItLetsGoOrLapses() throws InterruptedException {
        Duration d = Duration.ofMinutes(1);
        assertTrue(leases.acquire("c1", "a", d).await().atMost(T));
        assertFalse(leases.acquire("c1", "b", d).await().atMost(T), "held by a");
        assertTrue(leases.acquire("c1", "a", d).await().atMost(T), "a renews");
        assertEquals(Set.of("c1"), leases.heldByOthers("b").await().atMost(T));
        assertTrue(leases.acquire("c1", "a", Duration.ofMillis(200)).await().atMost(T), "a renews briefly");
        Thread.sleep(400);
        assertEquals(Set.of(), leases.heldByOthers("b").await().atMost(T), "lapsed");
        assertTrue(leases.acquire("c1", "b", d).await().atMost(T), "lapsed: b takes it");
        leases.release(List.of("c1"), "a").await().atMost(T);
        assertFalse(leases.acquire("c1", "a", d).await().atMost(T), "a cannot release b's lease");
        leases.release(List.of("c1"), "b").await().atMost(T);
        assertTrue(leases.acquire("c1", "a", d).await().atMost(T), "released: taken at once");
    }

    @Test
    void manyNamesAtOnceGiveTheOnesTaken() {
        Duration d = Duration.ofMinutes(1);
        assertEquals(Set.of("t1", "t2"), leases.acquire(List.of("t1", "t2"), "x", d).await().atMost(T));
        assertEquals(Set.of("t3"), leases.acquire(List.of("t2", "t3"), "y", d).await().atMost(T));
        assertEquals(Set.of(), leases.acquire(List.of(), "y", d).await().atMost(T));
        leases.releaseAll("x").await().atMost(T);
        assertEquals(Set.of("t3"), leases.heldByOthers("x").await().atMost(T));
        assertEquals(Set.of("t1", "t2"), leases.acquire(List.of("t1", "t2"), "y", d).await().atMost(T));
    }
}
