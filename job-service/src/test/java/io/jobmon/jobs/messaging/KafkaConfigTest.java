package io.jobmon.jobs.messaging;

import io.jobmon.testsupport.KafkaConfigChecks;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;

/** contracts' shared Kafka settings apply; this service does not read jobmon.job.changes (it writes it): the channel is off. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithKubernetesTestServer
class KafkaConfigTest extends KafkaConfigChecks {

    KafkaConfigTest() {
        super(null);
    }
}
