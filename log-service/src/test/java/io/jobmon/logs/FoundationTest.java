package io.jobmon.logs;

import io.jobmon.testsupport.FoundationChecks;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;

/** log-service starts on real PostgreSQL and Kafka, reports health, and guards /api with problem+json answers. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
class FoundationTest extends FoundationChecks {
    FoundationTest() {
        super("log-service");
    }
}
