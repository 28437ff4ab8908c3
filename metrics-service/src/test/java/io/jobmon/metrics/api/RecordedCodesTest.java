package io.jobmon.metrics.api;

import io.jobmon.testsupport.RecordedCodesChecks;

/** Every status metrics-service's own tests received from an operation is one its OpenAPI document declares. */
class RecordedCodesTest extends RecordedCodesChecks {
    RecordedCodesTest() {
        super("metrics-service");
    }
}
