package io.jobmon.logs.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.logs.Fixtures;
import io.jobmon.logs.chunk.ChunkCodec;
import io.jobmon.logs.chunk.ChunkData;
import io.jobmon.logs.chunk.ChunkIndex;
import io.jobmon.logs.chunk.ChunkLines;
import io.jobmon.logs.chunk.ChunkPartitions;
import io.jobmon.logs.chunk.ChunkStore;
import io.jobmon.logs.chunk.Compactor;
import io.jobmon.logs.chunk.NewChunk;
import io.jobmon.logs.chunk.PgChunkStore;
import io.jobmon.logs.chunk.S3ChunkStore;
import io.jobmon.logs.chunk.StoredLine;
import io.jobmon.logs.chunk.StreamKey;
import io.jobmon.logs.query.ChunkQueries;
import io.jobmon.logs.query.LogReader;
import io.jobmon.logs.query.Scope;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.quarkus.arc.ClientProxy;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The newest segment an index row keeps with bodies in s3proxy (ADR 0047): a tail of the newest lines makes no GET and
 * reads what PostgreSQL mode reads (the same chunks, bodies in {@code chunk_body}); a tail past the segment, a range
 * ending earlier and rows without one (written before V6) read the bodies; a newer chunk, a compaction, clear the
 * older row's segment.
 */
@QuarkusTest
@TestProfile(S3Profile.class)
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
class KeptSegmentS3Test {

    static final Duration WAIT = Duration.ofSeconds(30);
    static final ExecutorService THREADS = Executors.newFixedThreadPool(2);
    /**
     * Lines of pods w0..w2 (12 segments each: the newest 184 lines and four of 256 are kept, 1,208) and of w3 (one
     * segment: its body is kept whole).
     */
    static final int[] LINES = {3000, 3000, 3000, 50};

    @Inject
    ChunkStore store;
    @Inject
    ChunkIndex index;
    @Inject
    ChunkQueries queries;
    @Inject
    ChunkPartitions partitions;
    @Inject
    Compactor compactor;
    @Inject
    Pool pool;

    /** The PostgreSQL mode's chunks leave this schema, whose every other index row has its body in the bucket. */
    @AfterEach
    void removeThePostgresqlModesChunks() {
        pool.withTransaction(conn -> conn.query("DELETE FROM chunk c USING chunk_body b WHERE c.day = b.day AND c.id = b.id")
                .execute().chain(() -> conn.query("DELETE FROM chunk_body").execute())).await().atMost(WAIT);
    }

    @AfterAll
    static void stop() {
        THREADS.shutdown();
    }

    long gets() {
        return ((S3ChunkStore) ((ClientProxy) store).arc_contextualInstance()).gets();
    }

    static NewChunk chunk(String job, int pod, int level, long firstOffset, int lines) {
        List<StoredLine> l = new ArrayList<>();
        long t0 = 1_783_900_800_000_000_000L;
        for (int i = 0; i < lines; i++) {
            long o = firstOffset + i;
            l.add(new StoredLine(t0 + o * 4000 + pod * 1000L, o * 4 + pod, 0, 0, "w" + pod + " step " + o));
        }
        ChunkLines c = ChunkLines.of(l);
        return new NewChunk(StreamKey.user(job, "n1", "team-nlp", job + "-w" + pod, "trainer"), 0, level,
                ChunkCodec.encode(c, 3, 4096), c);
    }

    /** Writes the chunks in one transaction through {@code into} (the service's index, or one over PostgreSQL bodies). */
    void write(ChunkIndex into, List<NewChunk> chunks) {
        LocalDate day = ChunkPartitions.day(Instant.now());
        partitions.ensure(day).await().atMost(WAIT);
        pool.withTransaction(conn -> into.insert(conn, day, chunks)).await().atMost(WAIT);
    }

    /** The same job's lines as a chunk per pod, once with bodies in S3 and once in PostgreSQL; @return the two jobs. */
    String[] twoJobs() {
        String s3 = Fixtures.newJob();
        String pg = Fixtures.newJob();
        List<NewChunk> s3Chunks = new ArrayList<>();
        List<NewChunk> pgChunks = new ArrayList<>();
        for (int p = 0; p < LINES.length; p++) {
            s3Chunks.add(chunk(s3, p, 1, 0, LINES[p]));
            pgChunks.add(chunk(pg, p, 1, 0, LINES[p]));
        }
        write(index, s3Chunks);
        write(new ChunkIndex(new PgChunkStore(pool)), pgChunks);
        return new String[] {s3, pg};
    }

    static List<String> tail(ChunkQueries q, String job, String pod, long to, int n) {
        Scope scope = new Scope(job, true, false, pod == null ? null : job + "-" + pod, null, List.of(), 0, 0);
        return new LogReader(q, THREADS).read(new LogReader.Request(scope, Long.MIN_VALUE, to, null, false, n, null, null))
                .stream().map(f -> f.position().time() + " " + f.chunk().pod().substring(job.length()) + " " + f.line().text())
                .toList();
    }

    ChunkQueries postgres() {
        return new ChunkQueries(pool, new PgChunkStore(pool));
    }

    long kept(String job) {
        return Fixtures.count(pool, "SELECT count(*) FROM chunk WHERE job_id = $1 AND newest IS NOT NULL", job);
    }

    @Test
    void aTailOfTheNewestLinesMakesNoGetAndReadsWhatPostgresqlModeReads() {
        String[] jobs = twoJobs();
        assertEquals(LINES.length, kept(jobs[0]), "each stream's newest chunk keeps its newest segment");
        assertEquals(0, kept(jobs[1]), "PostgreSQL mode keeps none");
        long before = gets();
        List<String> s3 = tail(queries, jobs[0], null, Long.MAX_VALUE, 100);
        assertEquals(0, gets() - before, "no GET");
        List<String> pg = tail(postgres(), jobs[1], null, Long.MAX_VALUE, 100);
        assertEquals(101, s3.size());
        assertEquals(pg, s3);
        assertTrue(s3.get(0).endsWith("w2 step 2999"), s3.get(0));
        // the small chunk, kept whole: all its lines without a GET
        assertEquals(tail(postgres(), jobs[1], "w3", Long.MAX_VALUE, 60), tail(queries, jobs[0], "w3", Long.MAX_VALUE, 60));
        assertEquals(0, gets() - before, "no GET");
    }

    /**
     * The console's tail of one pod (ADR 0052): 1,000 lines and the one more that says older ones exist, from the kept
     * segments of the pod's newest chunk alone; its older chunks are not fetched ahead.
     */
    @Test
    void aThousandLineTailOfOnePodMakesNoGetAndReadsWhatPostgresqlModeReads() {
        String s3 = Fixtures.newJob();
        String pg = Fixtures.newJob();
        ChunkIndex postgresIndex = new ChunkIndex(new PgChunkStore(pool));
        for (long first = 0; first < 9000; first += 3000) {
            write(index, List.of(chunk(s3, 1, 1, first, 3000), chunk(s3, 2, 1, first, 3000)));
            write(postgresIndex, List.of(chunk(pg, 1, 1, first, 3000), chunk(pg, 2, 1, first, 3000)));
        }
        long before = gets();
        List<String> lines = tail(queries, s3, "w1", Long.MAX_VALUE, 1000);
        assertEquals(0, gets() - before, "no GET");
        assertEquals(1001, lines.size());
        assertEquals(tail(postgres(), pg, "w1", Long.MAX_VALUE, 1000), lines);
        assertTrue(lines.get(0).endsWith("w1 step 8999") && lines.get(1000).endsWith("w1 step 7999"), lines.get(1000));
    }

    @Test
    void aTailPastTheKeptSegmentARangeEndingEarlierAndRowsWithoutOneReadTheBodies() {
        String[] jobs = twoJobs();
        long before = gets();
        List<String> past = tail(queries, jobs[0], "w0", Long.MAX_VALUE, 1500);
        assertTrue(gets() > before, "lines older than the segments are fetched");
        assertEquals(1501, past.size());
        assertEquals(tail(postgres(), jobs[1], "w0", Long.MAX_VALUE, 1500), past);
        long to = 1_783_900_800_000_000_000L + 900 * 4000L;
        before = gets();
        assertEquals(tail(postgres(), jobs[1], null, to, 100), tail(queries, jobs[0], null, to, 100));
        assertTrue(gets() > before, "a range ending inside the chunks reads their bodies");
        // rows written before the migration keep none: the tail reads the fronts of the bodies, the same lines
        pool.preparedQuery("UPDATE chunk SET newest = NULL WHERE job_id = $1").execute(Tuple.of(jobs[0])).await().atMost(WAIT);
        before = gets();
        assertEquals(tail(postgres(), jobs[1], null, Long.MAX_VALUE, 100), tail(queries, jobs[0], null, Long.MAX_VALUE, 100));
        assertTrue(gets() > before, "without the segment: GETs");
    }

    @Test
    void aNewerChunkOfTheStreamAndACompactionClearTheOlderRowsSegment() {
        String job = Fixtures.newJob();
        write(index, List.of(chunk(job, 0, 0, 0, 300), chunk(job, 1, 0, 0, 10)));
        write(index, List.of(chunk(job, 0, 0, 300, 300)));
        assertEquals(2, kept(job), "one a stream");
        assertEquals(300, Fixtures.count(pool, "SELECT min_offset FROM chunk WHERE job_id = $1 AND pod = $2 AND newest IS NOT NULL",
                job, job + "-w0") / 4, "the newer chunk's");
        compactor.run(Duration.ZERO).await().atMost(WAIT);
        assertEquals(0, Fixtures.count(pool, "SELECT count(*) FROM chunk WHERE job_id = $1 AND level = 0", job));
        assertEquals(2, kept(job), "the compacted chunk, its stream's newest, keeps its newest segment");
        byte[] segment = pool.preparedQuery("SELECT newest FROM chunk WHERE job_id = $1 AND pod = $2 AND newest IS NOT NULL")
                .execute(Tuple.of(job, job + "-w0")).await().atMost(WAIT).iterator().next().getBuffer("newest").getBytes();
        ChunkData d = ChunkCodec.decodeNewestOfFront(segment, 1);
        assertEquals(600, d.first + d.size, "of the merged chunk of 600 lines");
        assertEquals("w0 step 599", d.line(d.size - 1));
        long before = gets();
        List<String> lines = tail(queries, job, "w0", Long.MAX_VALUE, 20);
        assertEquals(0, gets() - before, "no GET");
        assertArrayEquals(new String[] {"w0 step 579", "w0 step 599"},
                new String[] {lines.get(20).substring(lines.get(20).indexOf("w0 s")), lines.get(0).substring(lines.get(0).indexOf("w0 s"))});
    }
}
