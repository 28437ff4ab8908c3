package io.jobmon.events.api;

import io.jobmon.testsupport.RecordedCodesChecks;

/** Every status event-ingest's own tests received from an operation is one its OpenAPI document declares. */
class RecordedCodesTest extends RecordedCodesChecks {
    RecordedCodesTest() {
        super("event-ingest-service");
    }
}
