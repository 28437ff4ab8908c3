package io.jobmon.diagnosis.messaging;

import io.jobmon.diagnosis.support.EvidenceServer;
import io.jobmon.testsupport.KafkaConfigChecks;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;

/** contracts' shared Kafka settings apply; this service reads jobmon.job.changes as group diagnosis-service. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithTestResource(EvidenceServer.class)
class KafkaConfigTest extends KafkaConfigChecks {

    KafkaConfigTest() {
        super("diagnosis-service");
    }
}
