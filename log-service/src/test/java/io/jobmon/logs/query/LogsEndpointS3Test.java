package io.jobmon.logs.query;

import io.jobmon.logs.s3.S3Profile;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;

/** {@link LogsEndpointTest} (tail, pages, search and counts) with chunk bodies in an S3 store (s3proxy). */
@QuarkusTest
@TestProfile(S3Profile.class)
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
class LogsEndpointS3Test extends LogsEndpointTest {
}
