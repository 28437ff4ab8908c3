package io.jobmon.jobs;

import io.jobmon.testsupport.SchemaUpgradeChecks;

/**
 * A schema migrated by this service's migrations as they shipped upgrades to the layout where contracts owns its
 * tables, and equals a fresh install (the changed migrations' shipped texts: test resources db/shipped/).
 */
class SchemaUpgradeTest extends SchemaUpgradeChecks {
}
