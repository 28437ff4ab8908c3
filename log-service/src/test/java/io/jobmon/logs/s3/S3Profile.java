package io.jobmon.logs.s3;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.List;
import java.util.Map;

/**
 * log-service with chunk bodies in s3proxy ({@code jobmon.logs.chunk-store=s3}): the store tests run again in it. Its
 * own schema {@code logs_s3}: the index rows of the PostgreSQL mode's tests (bodies in {@code chunk_body}) are not its.
 * Bodies the service puts are not cached ({@code s3.cache-written=false}): the tests read them back from s3proxy.
 */
public class S3Profile implements QuarkusTestProfile {

    @Override
    public List<TestResourceEntry> testResources() {
        return List.of(new TestResourceEntry(S3TestResource.class));
    }

    @Override
    public Map<String, String> getConfigOverrides() {
        // bodies read back with GETs, not from the cache of the bodies the service put (S3ChunkStoreTest tests that)
        return Map.of("quarkus.flyway.schemas", "logs_s3",
                "quarkus.datasource.reactive.additional-properties.search_path", "logs_s3",
                "jobmon.logs.s3.cache-written", "false");
    }
}
