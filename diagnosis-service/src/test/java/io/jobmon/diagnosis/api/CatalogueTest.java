package io.jobmon.diagnosis.api;

import io.jobmon.testsupport.CatalogueChecks;
import java.util.Set;

/**
 * diagnosis-service's catalogue (the texts of its REST layer, its requests' validation and its fault handling) is
 * complete in English and Chinese; the engine's bilingual texts are its own catalogue (resources/diagnosis).
 */
class CatalogueTest extends CatalogueChecks {

    @Override
    protected Set<String> requiredKeys() {
        return Set.of("diagnosis.status.PENDING", "diagnosis.status.RUNNING", "diagnosis.status.DONE",
                "diagnosis.status.FAILED");
    }
}
