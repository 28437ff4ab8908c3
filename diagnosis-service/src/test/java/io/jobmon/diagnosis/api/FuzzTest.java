package io.jobmon.diagnosis.api;

import io.jobmon.diagnosis.support.EvidenceServer;
import io.jobmon.diagnosis.support.Jobs;
import io.jobmon.testsupport.FuzzChecks;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;

/**
 * Every operation of diagnosis-service, fuzzed from its own OpenAPI document (the analyze route included), answers
 * a 4xx problem, never a 5xx. Job ids name a job alice may see, so task bodies reach their validation.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithTestResource(EvidenceServer.class)
class FuzzTest extends FuzzChecks {

    private static String job;

    @Override
    protected String pathValue(String method, String template, String parameter) {
        if (!template.startsWith("/api/v1/jobs/")) {
            return "dg-fuzz";
        }
        if (job == null) {
            job = Jobs.job(Jobs.newId("fuzz")).publish();
        }
        return job;
    }
}
