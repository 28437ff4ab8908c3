-- The suite's one outbox (contracts' io.jobmon.contracts.outbox.Outbox): any topic, records in order, a key's
-- unsent snapshot replaced by the newer one (replace_key). Rows not yet published move over.
CREATE TABLE outbox_shared (
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
INSERT INTO outbox_shared (topic, record_key, payload, replace_key, created_at)
SELECT 'jobmon.job.changes', job_id, payload, 'jobmon.job.changes/' || job_id, changed_at
FROM outbox ORDER BY changed_at;
DROP TABLE outbox;
ALTER TABLE outbox_shared RENAME TO outbox;
ALTER INDEX outbox_shared_pkey RENAME TO outbox_pkey;
ALTER INDEX outbox_shared_replace_key_key RENAME TO outbox_replace_key_key;
ALTER SEQUENCE outbox_shared_id_seq RENAME TO outbox_id_seq;
CREATE INDEX outbox_topic_key ON outbox (topic, record_key, id);
