package io.jobmon.events;

import io.jobmon.testsupport.FoundationChecks;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;

/**
 * event-ingest-service starts on real PostgreSQL and Kafka, reports health, and guards /api with problem+json answers.
 * Every {@code @QuarkusTest} of the module carries the same three test resources so that they share one boot
 * (WatcherTest alone adds the mock API server, which Quarkus restricts to its class, and a profile).
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
class FoundationTest extends FoundationChecks {
    FoundationTest() {
        super("event-ingest-service");
    }
}
