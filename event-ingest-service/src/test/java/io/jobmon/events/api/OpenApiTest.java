package io.jobmon.events.api;

import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.OpenApiChecks;
import io.jobmon.testsupport.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;

/** event-ingest's OpenAPI document is valid 3.1, declares what its operation answers, and is the repository's copy. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
class OpenApiTest extends OpenApiChecks {
    OpenApiTest() {
        super("event-ingest-service");
    }
}
