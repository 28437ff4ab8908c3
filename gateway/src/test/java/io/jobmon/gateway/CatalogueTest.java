package io.jobmon.gateway;

import io.jobmon.testsupport.CatalogueChecks;
import java.util.Set;

/**
 * The gateway's catalogue (its own problems: 503, 504, 429) is complete in English and Chinese, with a name for
 * every service a route leads to.
 */
class CatalogueTest extends CatalogueChecks {

    @Override
    protected Set<String> requiredKeys() {
        return Set.of("gateway.service.job", "gateway.service.events", "gateway.service.logs", "gateway.service.metrics",
                "gateway.service.diagnosis");
    }
}
