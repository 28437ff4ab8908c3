package io.jobmon.events.api;

import io.jobmon.testsupport.FuzzChecks;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;

/** The events endpoint, fuzzed from the service's own OpenAPI document, answers a 4xx problem, never a 5xx. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
class FuzzTest extends FuzzChecks {
}
