package io.jobmon.logs.query;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jobmon.logs.Fixtures;
import io.jobmon.logs.chunk.ChunkCodec;
import io.jobmon.logs.chunk.ChunkIndex;
import io.jobmon.logs.chunk.ChunkPartitions;
import io.jobmon.logs.chunk.Compactor;
import io.jobmon.logs.chunk.ChunkLines;
import io.jobmon.logs.chunk.NewChunk;
import io.jobmon.logs.chunk.StoredLine;
import io.jobmon.logs.chunk.StreamKey;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One stream written by two replicas over time: its lines sit in chunks of two Kafka partitions (an unkeyed shipper)
 * and of two flush generations whose times overlap. Reading merges them in time order, paging both ways is exact,
 * and compaction changes nothing of it.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
class ReplicaOrderTest {

    @Inject
    Pool pool;
    @Inject
    ChunkIndex index;
    @Inject
    ChunkPartitions partitions;
    @Inject
    Compactor compactor;

    @Test
    void aStreamWrittenByTwoReplicasReadsBackInTimeOrderThroughPagingAndCompaction() {
        String job = Fixtures.newJob();
        Fixtures.publish(Fixtures.job(job, "PRIVATE", List.of(), List.of(job + "-w0"), 1));
        StreamKey stream = StreamKey.user(job, "gpu-node-07", "team-nlp", job + "-w0", "trainer");
        long t0 = Instant.parse("2026-07-13T12:00:00Z").getEpochSecond() * 1_000_000_000L;
        // replica A held partition 0 (even lines), replica B partition 1 (odd lines); each flushed twice
        List<NewChunk> chunks = new ArrayList<>();
        for (int partition = 0; partition < 2; partition++) {
            for (int flush = 0; flush < 2; flush++) {
                List<StoredLine> lines = new ArrayList<>();
                for (int i = flush * 20; i < flush * 20 + 20; i++) {
                    if (i % 2 == partition) {
                        lines.add(new StoredLine(t0 + i * 1_000_000L, 100 + i, 0, 0, "line " + i));
                    }
                }
                ChunkLines columns = ChunkLines.of(lines);
                chunks.add(new NewChunk(stream, partition, 0, ChunkCodec.encode(columns, 1, 1024), columns));
            }
        }
        LocalDate day = LocalDate.now(java.time.ZoneOffset.UTC);
        partitions.ensure(day).await().atMost(Duration.ofSeconds(10));
        pool.withTransaction(conn -> index.insert(conn, day, chunks)).await().atMost(Duration.ofSeconds(10));
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            expected.add("line " + i);
        }
        await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> read(job, "limit", "500").size() == 40);
        assertEquals(expected, read(job, "limit", "500"));
        assertEquals(expected, pages(job, true));
        compactor.run(Duration.ZERO).await().atMost(Duration.ofSeconds(30));
        assertEquals(2, Fixtures.count(pool, "SELECT count(*) FROM chunk WHERE job_id = $1", job), "one per partition");
        assertEquals(expected, read(job, "limit", "500"));
        List<String> backward = pages(job, false);
        java.util.Collections.reverse(backward);
        assertEquals(expected, backward);
    }

    private static List<String> read(String job, String... params) {
        var req = given().auth().oauth2(Tokens.alice()).queryParam("type", "user");
        for (int i = 0; i < params.length; i += 2) {
            req.queryParam(params[i], params[i + 1]);
        }
        return req.get("/api/v1/jobs/" + job + "/logs").then().statusCode(200).extract().jsonPath()
                .getList("items.line", String.class);
    }

    private static List<String> pages(String job, boolean forward) {
        List<String> out = new ArrayList<>();
        String cursor = null;
        do {
            var req = given().auth().oauth2(Tokens.alice()).queryParam("type", "user").queryParam("limit", "3")
                    .queryParam("direction", forward ? "forward" : "backward");
            if (cursor != null) {
                req.queryParam("cursor", cursor);
            }
            var body = req.get("/api/v1/jobs/" + job + "/logs").then().statusCode(200).extract().jsonPath();
            out.addAll(body.getList("items.line", String.class));
            cursor = body.getString("nextCursor");
        } while (cursor != null);
        return out;
    }
}
