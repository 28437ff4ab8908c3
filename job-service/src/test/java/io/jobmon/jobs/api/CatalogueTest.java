package io.jobmon.jobs.api;

import io.jobmon.contracts.events.JobStatus;
import io.jobmon.testsupport.CatalogueChecks;
import java.util.Set;
import java.util.TreeSet;

/** job-service's catalogue is complete in English and Chinese, placeholders included, every key the code names. */
class CatalogueTest extends CatalogueChecks {

    @Override
    protected Set<String> requiredKeys() {
        Set<String> keys = new TreeSet<>();
        for (JobStatus s : JobStatus.values()) {
            keys.add("status." + s.name()); // built from the status at run time
        }
        return keys;
    }
}
