package io.jobmon.diagnosis;

import io.jobmon.diagnosis.support.EvidenceServer;
import io.jobmon.testsupport.FoundationChecks;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;

/** diagnosis-service starts on real PostgreSQL and Kafka, reports health, and guards /api with problem+json answers. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
// The same resources as every other test of the module: they all share one boot.
@WithTestResource(EvidenceServer.class)
class FoundationTest extends FoundationChecks {
    FoundationTest() {
        super("diagnosis-service");
    }
}
