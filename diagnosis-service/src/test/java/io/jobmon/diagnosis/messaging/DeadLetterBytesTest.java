package io.jobmon.diagnosis.messaging;

import io.jobmon.testsupport.DeadLetters;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import io.jobmon.diagnosis.support.EvidenceServer;

import org.junit.jupiter.api.Test;

/** A record that is not UTF-8 reaches its dead-letter topic byte for byte, not as replacement characters (issue #26.6). */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithTestResource(EvidenceServer.class)
class DeadLetterBytesTest {

    @Test
    void jobStatusDeadLettersAreTheRecordsBytes() {
        DeadLetters.assertKeptByteForByte("jobmon.job.status");
    }

    @Test
    void jobChangesDeadLettersAreTheRecordsBytes() {
        DeadLetters.assertKeptByteForByte("jobmon.job.changes");
    }
}
