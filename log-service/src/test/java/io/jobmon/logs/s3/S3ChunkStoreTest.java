package io.jobmon.logs.s3;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.logs.Fixtures;
import io.jobmon.logs.chunk.ChunkCodec;
import io.jobmon.logs.chunk.ChunkIndex;
import io.jobmon.logs.chunk.ChunkLines;
import io.jobmon.logs.chunk.ChunkPartitions;
import io.jobmon.logs.chunk.ChunkRef;
import io.jobmon.logs.chunk.ChunkStore;
import io.jobmon.logs.chunk.NewChunk;
import io.jobmon.logs.chunk.S3ChunkStore;
import io.jobmon.logs.chunk.StoredLine;
import io.jobmon.logs.chunk.StreamKey;
import io.jobmon.logs.retention.RetentionJob;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The S3 store against s3proxy: bodies in the bucket and none in PostgreSQL, ranged reads, a crash between the puts
 * and the index's commit (an orphan, never an index row without its body; the sweep removes it), deletes only after
 * the commit, retention removing the objects with their rows.
 */
@QuarkusTest
@TestProfile(S3Profile.class)
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
class S3ChunkStoreTest {

    static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    ChunkStore store;
    @Inject
    ChunkIndex index;
    @Inject
    ChunkPartitions partitions;
    @Inject
    RetentionJob retention;
    @Inject
    Pool pool;

    static NewChunk chunk(String job, int lines) {
        List<StoredLine> l = new ArrayList<>();
        long t0 = Instant.now().toEpochMilli() * 1_000_000L;
        for (int i = 0; i < lines; i++) {
            l.add(new StoredLine(t0 + i, i, 0, 0, "step " + i + " loss=" + (2.0 - i / 1000.0)));
        }
        ChunkLines c = ChunkLines.of(l);
        return new NewChunk(StreamKey.user(job, "n1", "team-nlp", job + "-w0", "trainer"), 0, 1,
                ChunkCodec.encode(c, 3, 4096), c);
    }

    List<ChunkRef> refs(String job) {
        List<ChunkRef> out = new ArrayList<>();
        pool.preparedQuery("SELECT day, id FROM chunk WHERE job_id = $1").execute(Tuple.of(job)).await().atMost(WAIT)
                .forEach(r -> out.add(new ChunkRef(r.getLocalDate("day"), r.getLong("id"))));
        return out;
    }

    /** Writes chunks as a flush does, failing after the puts (before the commit) when asked; @return their refs. */
    List<ChunkRef> write(String job, int chunks, boolean crashBeforeCommit) {
        LocalDate day = ChunkPartitions.day(Instant.now());
        partitions.ensure(day).await().atMost(WAIT);
        List<NewChunk> list = new ArrayList<>();
        for (int i = 0; i < chunks; i++) {
            list.add(chunk(job, 300 + i));
        }
        AtomicReference<List<ChunkRef>> written = new AtomicReference<>();
        Uni<List<ChunkRef>> tx = pool.withTransaction(conn -> index.insert(conn, day, list).invoke(written::set)
                .call(refs -> crashBeforeCommit ? Uni.createFrom().failure(new IllegalStateException("crash")) : Uni.createFrom().voidItem()));
        if (crashBeforeCommit) {
            assertThrows(IllegalStateException.class, () -> tx.await().atMost(WAIT));
        } else {
            tx.await().atMost(WAIT);
        }
        return written.get();
    }

    @Test
    void theBodiesAreInTheBucketAndNotInPostgresql() {
        assertInstanceOf(S3ChunkStore.class, ((io.quarkus.arc.ClientProxy) store).arc_contextualInstance());
        String job = Fixtures.newJob();
        List<ChunkRef> refs = write(job, 3, false);
        assertEquals(refs.size(), refs(job).size());
        assertEquals(0, Fixtures.count(pool, "SELECT count(*) FROM chunk_body"));
        Map<ChunkRef, byte[]> bodies = store.get(refs).await().atMost(WAIT);
        assertEquals(3, bodies.size());
        for (ChunkRef r : refs) {
            assertEquals(300 + refs.indexOf(r), ChunkCodec.decode(bodies.get(r)).size, "the body of " + r);
        }
    }

    @Test
    void aRangedReadReturnsTheFrontOfABodyAndAGoneBodyIsAbsent() {
        List<ChunkRef> refs = write(Fixtures.newJob(), 2, false);
        byte[] whole = store.get(refs).await().atMost(WAIT).get(refs.get(0));
        Map<ChunkRef, byte[]> front = store.get(refs, new int[] {64, 0}).await().atMost(WAIT);
        assertArrayEquals(java.util.Arrays.copyOf(whole, 64), front.get(refs.get(0)));
        assertEquals(store.get(refs).await().atMost(WAIT).get(refs.get(1)).length, front.get(refs.get(1)).length, "0: whole");
        ChunkRef missing = new ChunkRef(refs.get(0).day(), -1);
        assertEquals(List.of(refs.get(0)), List.copyOf(store.get(List.of(refs.get(0), missing)).await().atMost(WAIT).keySet()));
    }

    @Test
    void aReplicaReadsTheBodiesItPutFromItsCacheAndTheOthersFromTheStore() throws Exception {
        LocalDate day = ChunkPartitions.day(Instant.now());
        ChunkRef ref = new ChunkRef(day, -System.nanoTime());
        byte[] body = chunk(Fixtures.newJob(), 2000).encoded().body();
        try (S3ChunkStore writer = new S3ChunkStore(pool, S3TestResource.settings(S3TestResource.endpoint()))) {
            writer.put(null, List.of(new ChunkStore.Body(ref, body))).await().atMost(WAIT);
            // another replica (this profile's store puts nothing in its cache) reads it from s3proxy, whole and its front
            assertArrayEquals(body, store.get(List.of(ref)).await().atMost(WAIT).get(ref));
            assertArrayEquals(java.util.Arrays.copyOf(body, 100), store.get(List.of(ref), new int[] {100}).await().atMost(WAIT).get(ref));
            store.delete(null, List.of(ref)).await().atMost(WAIT); // without a transaction: at once
            assertTrue(store.get(List.of(ref)).await().atMost(WAIT).isEmpty(), "gone from the bucket");
            // the replica that put it answers from its cache (a reader that read the index before the delete)
            assertArrayEquals(body, writer.get(List.of(ref)).await().atMost(WAIT).get(ref));
            assertArrayEquals(java.util.Arrays.copyOf(body, 100), writer.get(List.of(ref), new int[] {100}).await().atMost(WAIT).get(ref));
            writer.delete(null, List.of(ref)).await().atMost(WAIT);
            assertTrue(writer.get(List.of(ref)).await().atMost(WAIT).isEmpty(), "its own delete empties its cache");
        }
    }

    @Test
    void aCrashBeforeTheCommitLeavesAnOrphanBodyNeverAnIndexRowAndTheSweepRemovesIt() {
        String kept = Fixtures.newJob();
        List<ChunkRef> keptRefs = write(kept, 2, false);
        String crashed = Fixtures.newJob();
        List<ChunkRef> orphans = write(crashed, 3, true);
        assertEquals(0, refs(crashed).size(), "no index row without its body");
        assertEquals(3, store.get(orphans).await().atMost(WAIT).size(), "the bodies were put before the commit");
        LocalDate today = ChunkPartitions.day(Instant.now());
        assertEquals(0, store.sweepOrphans(Duration.ofHours(1), today).await().atMost(WAIT), "younger than the grace");
        assertTrue(store.sweepOrphans(Duration.ZERO, today).await().atMost(WAIT) >= 3);
        assertEquals(0, store.get(orphans).await().atMost(WAIT).size());
        assertEquals(2, store.get(keptRefs).await().atMost(WAIT).size(), "indexed bodies stay");
        // every index row of the schema has its body
        List<ChunkRef> all = new ArrayList<>();
        pool.query("SELECT day, id FROM chunk").execute().await().atMost(WAIT)
                .forEach(r -> all.add(new ChunkRef(r.getLocalDate("day"), r.getLong("id"))));
        assertEquals(all.size(), store.get(all).await().atMost(WAIT).size());
    }

    @Test
    void aDeleteHappensOnlyOnceItsTransactionCommitted() {
        List<ChunkRef> refs = write(Fixtures.newJob(), 2, false);
        assertThrows(IllegalStateException.class, () -> pool.withTransaction(conn -> store.delete(conn, refs)
                .chain(() -> Uni.createFrom().failure(new IllegalStateException("rolled back")))).await().atMost(WAIT));
        assertEquals(2, store.get(refs).await().atMost(WAIT).size(), "a rollback keeps the bodies");
        pool.withTransaction(conn -> store.delete(conn, refs)).await().atMost(WAIT);
        await().atMost(WAIT).until(() -> store.get(refs).await().atMost(WAIT).isEmpty());
    }

    @Test
    void retentionRemovesTheObjectsWithTheirIndexRows() {
        String job = Fixtures.newJob();
        var s = Fixtures.job(job, "PRIVATE", List.of(), List.of(job + "-w0"), 1);
        Instant ended = Instant.now().minus(Duration.ofDays(40));
        Fixtures.publish(new io.jobmon.contracts.events.JobSnapshot(s.jobId(), s.tenant(), s.owner(), s.project(),
                s.visibility(), s.shares(), s.name(), s.cluster(), s.region(), s.queue(), s.status(), null, s.gpuType(),
                s.gpuCount(), s.pods(), s.nodes(), false, false, 0, 0, s.submittedAt(), s.startedAt(), ended, 1, false,
                s.namespace(), null, List.of()));
        await().atMost(Duration.ofSeconds(60)).until(() -> Fixtures.count(pool, "SELECT count(*) FROM job_info WHERE job_id = $1", job) == 1);
        List<ChunkRef> refs = write(job, 4, false);
        assertEquals(4, store.get(refs).await().atMost(WAIT).size());
        retention.expire(Instant.now()).await().atMost(WAIT);
        assertEquals(0, refs(job).size());
        await().atMost(WAIT).until(() -> store.get(refs).await().atMost(WAIT).isEmpty());
    }
}
