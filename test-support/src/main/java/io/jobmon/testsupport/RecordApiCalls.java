package io.jobmon.testsupport;

import io.quarkus.test.junit.callback.QuarkusTestBeforeEachCallback;
import io.quarkus.test.junit.callback.QuarkusTestMethodContext;

/** Installs {@link ApiCallRecorder} before every {@code @QuarkusTest} method (a Quarkus test callback, by service loader). */
public class RecordApiCalls implements QuarkusTestBeforeEachCallback {

    @Override
    public void beforeEach(QuarkusTestMethodContext context) {
        ApiCallRecorder.install();
    }
}
