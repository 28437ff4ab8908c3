package io.jobmon.metrics.api;

import io.jobmon.metrics.query.Catalogue;
import io.jobmon.metrics.query.CatalogueResource;
import io.jobmon.testsupport.CatalogueChecks;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * metrics-service's catalogue is complete in English and Chinese, placeholders included, every key the code names
 * and a title for every metric of the catalogue.
 */
class CatalogueTest extends CatalogueChecks {

    @Override
    protected Set<String> requiredKeys() {
        return Catalogue.all().stream().map(e -> CatalogueResource.TITLE + e.name()).collect(Collectors.toSet());
    }
}
