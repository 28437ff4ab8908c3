-- The suite's one outbox (io.jobmon.contracts.outbox.Outbox): any topic, records in order per key, a key's unsent
-- snapshot replaced by the newer one (replace_key), rows claimed by one instance at a time. Loaded by every service
-- that publishes (quarkus.flyway.locations); contracts owns it (docs/adr/0014-shared-tables-owned-by-contracts.md).
-- IF NOT EXISTS: a schema migrated before contracts owned the table has it already (applied out of order there, it
-- changes nothing).
CREATE TABLE IF NOT EXISTS outbox (
    id            BIGSERIAL PRIMARY KEY,
    topic         TEXT NOT NULL,
    record_key    TEXT NOT NULL,
    payload       TEXT,
    replace_key   TEXT UNIQUE,
    revision      INT NOT NULL DEFAULT 0,
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    claimed_by    TEXT,
    claimed_until TIMESTAMPTZ
);
CREATE INDEX IF NOT EXISTS outbox_topic_key ON outbox (topic, record_key, id);
