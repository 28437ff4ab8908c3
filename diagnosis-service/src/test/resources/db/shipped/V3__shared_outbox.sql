-- The suite's one outbox (contracts' io.jobmon.contracts.outbox.Outbox) replaces the published_at flags: a finished
-- diagnosis and a commanded fault action put their Kafka record here in the transaction that stores them.
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

-- What was stored but never acknowledged moves over as the CloudEvents the publishers wrote.
INSERT INTO outbox (topic, record_key, payload)
SELECT 'jobmon.diagnoses', d.job_id, json_build_object(
        'specversion', '1.0', 'id', gen_random_uuid()::text, 'source', '/jobmon/diagnosis-service',
        'type', 'io.jobmon.diagnosis.finished.v1', 'subject', d.job_id,
        'time', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'datacontenttype', 'application/json',
        'data', json_build_object('diagnosisId', d.id, 'jobId', d.job_id, 'trigger', d.trigger, 'category', d.category,
            'action', d.action, 'summary', d.result ->> 'summary', 'confidence', coalesce(d.confidence, 0),
            'finishedAt', to_char(d.finished_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))::text
FROM diagnosis d WHERE d.status = 'DONE' AND d.published_at IS NULL ORDER BY d.finished_at;

INSERT INTO outbox (topic, record_key, payload)
SELECT 'jobmon.job.commands', a.job_id, json_build_object(
        'specversion', '1.0', 'id', gen_random_uuid()::text, 'source', '/jobmon/diagnosis-service',
        'type', 'io.jobmon.job.command.v1', 'subject', a.job_id,
        'time', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'datacontenttype', 'application/json',
        'data', json_build_object('commandId', a.id, 'jobId', a.job_id, 'command', a.command,
            'diagnosisIds', json_build_array(a.first_diagnosis_id, a.second_diagnosis_id), 'reason', a.reason,
            'requestedAt', to_char(a.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))::text
FROM fault_action a WHERE a.outcome = 'COMMANDED' AND a.published_at IS NULL ORDER BY a.created_at;

DROP INDEX diagnosis_unpublished;
DROP INDEX fault_action_unpublished;
ALTER TABLE diagnosis DROP COLUMN published_at;
ALTER TABLE fault_action DROP COLUMN published_at;
