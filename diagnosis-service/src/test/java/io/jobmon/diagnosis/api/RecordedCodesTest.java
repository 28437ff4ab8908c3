package io.jobmon.diagnosis.api;

import io.jobmon.testsupport.RecordedCodesChecks;

/** Every status diagnosis-service's own tests received from an operation is one its OpenAPI document declares. */
class RecordedCodesTest extends RecordedCodesChecks {
    RecordedCodesTest() {
        super("diagnosis-service");
    }
}
