package io.jobmon.jobs.api;

import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.OpenApiChecks;
import io.jobmon.testsupport.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;

/** job-service's OpenAPI document is valid 3.1, declares what every operation answers, and is the repository's copy. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithKubernetesTestServer
class OpenApiTest extends OpenApiChecks {
    OpenApiTest() {
        super("job-service");
    }
}
