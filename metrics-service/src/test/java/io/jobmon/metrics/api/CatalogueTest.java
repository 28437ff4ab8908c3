package io.jobmon.metrics.api;

import io.jobmon.testsupport.CatalogueChecks;

/** metrics-service's catalogue is complete in English and Chinese, placeholders included, every key the code names. */
class CatalogueTest extends CatalogueChecks {
}
