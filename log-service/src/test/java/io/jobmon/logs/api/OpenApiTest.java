package io.jobmon.logs.api;

import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.OpenApiChecks;
import io.jobmon.testsupport.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;

/**
 * log-service's OpenAPI document (the JAX-RS resources and the streaming routes of META-INF/openapi.yaml) is valid
 * 3.1, declares what every operation answers, and is the repository's copy.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
class OpenApiTest extends OpenApiChecks {
    OpenApiTest() {
        super("log-service");
    }
}
