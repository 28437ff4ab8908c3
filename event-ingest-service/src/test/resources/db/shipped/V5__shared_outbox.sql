-- The suite's one outbox (contracts' io.jobmon.contracts.outbox.Outbox) replaces status_outbox: transitions are
-- appended in the batch's transaction and published in order per job. Rows not yet published move over.
CREATE TABLE outbox (
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
CREATE INDEX outbox_topic_key ON outbox (topic, record_key, id);
INSERT INTO outbox (topic, record_key, payload, created_at)
SELECT 'jobmon.job.status', job_id, payload, created_at FROM status_outbox ORDER BY id;
DROP TABLE status_outbox;
