package io.jobmon.metrics.query;

import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.MetricsEngineTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;

/**
 * {@link GpuAttributionTest} (attribution by GPU identity, the guard's evidence metrics, holdings once) with
 * {@code jobmon.metrics.storage=prometheus} against a real Prometheus 2.42 (ADR 0036).
 */
@QuarkusTest
// a bean of its own type only: the builtin class it extends stays the one bean of that type
@jakarta.enterprise.inject.Typed(GpuAttributionPrometheusTest.class)
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
@WithTestResource(value = MetricsEngineTestResource.class, initArgs = @ResourceArg(name = "engine", value = "prometheus"))
class GpuAttributionPrometheusTest extends GpuAttributionTest {
}
