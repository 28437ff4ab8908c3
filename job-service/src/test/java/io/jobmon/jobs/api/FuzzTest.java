package io.jobmon.jobs.api;

import io.jobmon.jobs.TestJobs;
import io.jobmon.testsupport.FuzzChecks;
import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;

/**
 * Every operation of job-service, fuzzed from its own OpenAPI document with NUL characters, huge and Unicode values,
 * wrong JSON types and broken bodies, answers a 4xx problem, never a 5xx. Ids name a job of the caller, so bodies
 * reach their validation.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithKubernetesTestServer
class FuzzTest extends FuzzChecks {

    private static String job;

    @Override
    protected String token() {
        return Tokens.user("fuzzer").groups("project-nlp").get();
    }

    @Override
    protected String pathValue(String method, String template, String parameter) {
        if (method.equals("DELETE") || template.endsWith("/stop")) {
            return "fuzz-none"; // the job must stay there (and running) for the other operations
        }
        if (job == null) {
            job = TestJobs.submit(token());
        }
        return job;
    }
}
