package io.jobmon.diagnosis.api;

import io.jobmon.diagnosis.support.EvidenceServer;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.OpenApiChecks;
import io.jobmon.testsupport.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;

/** diagnosis-service's OpenAPI document is valid 3.1, declares what its operations answer, and is the repository's copy. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithTestResource(EvidenceServer.class)
class OpenApiTest extends OpenApiChecks {
    OpenApiTest() {
        super("diagnosis-service");
    }
}
