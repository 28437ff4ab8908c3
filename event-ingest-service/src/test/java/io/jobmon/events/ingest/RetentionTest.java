package io.jobmon.events.ingest;

import static io.jobmon.events.ingest.Store.count;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Events are dropped by day partition past retention (3650 days in the test profile). */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
class RetentionTest {

    @Inject
    Pool pool;
    @Inject
    EventPartitions partitions;
    @Inject
    RetentionJob retention;

    static final String INSERT = "INSERT INTO event (cluster, uid, created_at, job_id, count, last_time,"
            + " resource_version) VALUES ('c1', $1, $2::timestamptz, 'j-retention', 1, $2::timestamptz, 1)";

    @Test
    void partitionsWhollyPastRetentionAreDroppedAndNewerOnesKept() {
        // A clock in 2010: with 3650 days of retention, 2000-01-05 is past it and 2001-03-01 is not.
        Instant now = Instant.parse("2010-01-10T00:30:00Z");
        partitions.ensure(List.of(LocalDate.parse("2000-01-05"), LocalDate.parse("2001-03-01")))
                .await().atMost(Duration.ofSeconds(10));
        Store.rows(pool, INSERT, "old-1", OffsetDateTime.parse("2000-01-05T10:00:00Z"));
        Store.rows(pool, INSERT, "new-1", OffsetDateTime.parse("2001-03-01T10:00:00Z"));

        List<String> dropped = retention.run(now).await().atMost(Duration.ofSeconds(30));

        assertTrue(dropped.contains("event_p20000105"), dropped::toString);
        assertTrue(dropped.stream().allMatch(p -> p.compareTo("event_p20000114") < 0), dropped::toString);
        assertEquals(0, count(pool, "SELECT count(*) FROM pg_class WHERE relname = 'event_p20000105'"));
        assertEquals(1, count(pool, "SELECT count(*) FROM event WHERE uid = 'new-1'"));
        assertEquals(0, count(pool, "SELECT count(*) FROM event WHERE uid = 'old-1'"));
        assertEquals(1, count(pool, "SELECT count(*) FROM pg_class WHERE relname = 'event_p20100113'"),
                "the partitions ahead of the clock are created");
    }

    @Test
    void theRetentionWindowStartsAtTheFirstKeptDay() {
        assertEquals(Instant.parse("2000-01-14T00:00:00Z"), partitions.retentionStart(Instant.parse("2010-01-10T12:00:00Z")));
    }
}
