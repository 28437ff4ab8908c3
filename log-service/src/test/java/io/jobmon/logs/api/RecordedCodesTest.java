package io.jobmon.logs.api;

import io.jobmon.testsupport.RecordedCodesChecks;

/** Every status log-service's own tests received from an operation is one its OpenAPI document declares. */
class RecordedCodesTest extends RecordedCodesChecks {
    RecordedCodesTest() {
        super("log-service");
    }
}
