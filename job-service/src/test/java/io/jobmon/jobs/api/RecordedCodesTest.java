package io.jobmon.jobs.api;

import io.jobmon.testsupport.RecordedCodesChecks;

/** Every status job-service's own tests received from an operation is one its OpenAPI document declares. */
class RecordedCodesTest extends RecordedCodesChecks {
    RecordedCodesTest() {
        super("job-service");
    }
}
