package io.jobmon.events;

import io.jobmon.testsupport.CatalogueChecks;
import java.util.List;
import java.util.Set;

/**
 * event-ingest's catalogue is complete in both languages; every key its code names — its own and the common
 * catalogue's status texts it writes onto jobmon.job.status — exists.
 */
class CatalogueTest extends CatalogueChecks {

    @Override
    protected Set<String> requiredKeys() {
        // exit codes name their key at run time: status.exit.<code>
        return Set.of("status.exit.1", "status.exit.2", "status.exit.126", "status.exit.127", "status.exit.134",
                "status.exit.137", "status.exit.139", "status.exit.143");
    }

    @Override
    protected List<String> readBy() {
        return List.of(baseName(), COMMON);
    }
}
