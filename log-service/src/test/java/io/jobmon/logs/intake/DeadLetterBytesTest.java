package io.jobmon.logs.intake;

import io.jobmon.testsupport.DeadLetters;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;

import org.junit.jupiter.api.Test;

/** A record that is not UTF-8 reaches its dead-letter topic byte for byte, not as replacement characters (issue #26.6). */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)

class DeadLetterBytesTest {

    @Test
    void jobChangesDeadLettersAreTheRecordsBytes() {
        DeadLetters.assertKeptByteForByte("jobmon.job.changes");
    }

    @Test
    void logsLinesDeadLettersAreTheRecordsBytes() {
        DeadLetters.assertKeptByteForByte("jobmon.logs.lines");
    }
}
