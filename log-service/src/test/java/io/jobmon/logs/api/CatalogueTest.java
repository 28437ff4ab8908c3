package io.jobmon.logs.api;

import io.jobmon.testsupport.CatalogueChecks;

/** log-service's catalogue is complete in English and Chinese, placeholders included, every key the code names. */
class CatalogueTest extends CatalogueChecks {
}
