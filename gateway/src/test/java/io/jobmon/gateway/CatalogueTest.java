package io.jobmon.gateway;

import io.jobmon.testsupport.CatalogueChecks;

/** The gateway's catalogue (its own problems: 503, 504, 429) is complete in English and Chinese. */
class CatalogueTest extends CatalogueChecks {
}
