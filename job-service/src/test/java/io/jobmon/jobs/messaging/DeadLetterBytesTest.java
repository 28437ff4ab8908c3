package io.jobmon.jobs.messaging;

import io.jobmon.testsupport.DeadLetters;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import org.junit.jupiter.api.Test;

/** A record that is not UTF-8 reaches its dead-letter topic byte for byte, not as replacement characters (issue #26.6). */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithKubernetesTestServer
class DeadLetterBytesTest {

    @Test
    void jobCommandsDeadLettersAreTheRecordsBytes() {
        DeadLetters.assertKeptByteForByte("jobmon.job.commands");
    }

    @Test
    void jobStatusDeadLettersAreTheRecordsBytes() {
        DeadLetters.assertKeptByteForByte("jobmon.job.status");
    }

    @Test
    void diagnosesDeadLettersAreTheRecordsBytes() {
        DeadLetters.assertKeptByteForByte("jobmon.diagnoses");
    }
}
