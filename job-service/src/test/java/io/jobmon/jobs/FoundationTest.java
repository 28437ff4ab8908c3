package io.jobmon.jobs;

import io.jobmon.testsupport.FoundationChecks;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;

/** job-service starts on real PostgreSQL and Kafka, reports health, and guards /api with problem+json answers. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithKubernetesTestServer
class FoundationTest extends FoundationChecks {
    FoundationTest() {
        super("job-service");
    }
}
