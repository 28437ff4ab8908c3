package io.jobmon.metrics.api;

import io.jobmon.testsupport.KafkaConfigChecks;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;

/** contracts' shared Kafka settings apply; this service reads jobmon.job.changes as group metrics-service. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
class KafkaConfigTest extends KafkaConfigChecks {

    KafkaConfigTest() {
        super("metrics-service");
    }
}
