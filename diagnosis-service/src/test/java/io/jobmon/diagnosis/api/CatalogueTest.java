package io.jobmon.diagnosis.api;

import io.jobmon.testsupport.CatalogueChecks;
import java.nio.file.Path;

/** diagnosis-service's catalogue (its REST layer's texts) is complete in English and Chinese. */
class CatalogueTest extends CatalogueChecks {

    /** The REST layer names the keys; the engine's bilingual texts are its own catalogue (resources/diagnosis). */
    @Override
    protected Path sources() {
        return Path.of("src/main/java/io/jobmon/diagnosis/rest");
    }
}
