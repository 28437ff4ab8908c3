-- Texts jobmon writes (status messages, command outcomes) are kept as a catalogue key and its arguments, rendered
-- in the reader's language when read ({"code": "job.message.stopped-by", "args": ["alice"]}). "message" and
-- "detail" keep the English text for whoever reads the row without the catalogue. Kubernetes' own messages have
-- no key: they are shown verbatim.
ALTER TABLE job ADD COLUMN message_text jsonb;
ALTER TABLE job_transition ADD COLUMN message_text jsonb;
ALTER TABLE job_command ADD COLUMN detail_text jsonb;

-- Rows written before this migration: the English texts jobmon wrote then, as keys, so that they read in Chinese too.
CREATE FUNCTION pg_temp.text_of(reason text, message text) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE
        WHEN message = 'submitted' THEN '{"code": "job.message.submitted"}'::jsonb
        WHEN message ~ '^cloned from \S+$' THEN jsonb_build_object('code', 'job.message.cloned',
            'args', jsonb_build_array(substring(message FROM '^cloned from (\S+)$')))
        WHEN message ~ '^resubmitted in DEBUG mode from \S+$' THEN jsonb_build_object('code',
            'job.message.resubmitted-debug', 'args', jsonb_build_array(substring(message FROM 'from (\S+)$')))
        WHEN message ~ '^resubmitted from \S+$' THEN jsonb_build_object('code', 'job.message.resubmitted',
            'args', jsonb_build_array(substring(message FROM 'from (\S+)$')))
        WHEN message ~ '^restarted automatically after \S+ on diagnosis \S+$' THEN jsonb_build_object('code',
            'job.message.restarted-diagnosis', 'args', jsonb_build_array(
                substring(message FROM 'after (\S+) on'), substring(message FROM 'diagnosis (\S+)$')))
        WHEN message ~ '^restarted automatically after \S+$' THEN jsonb_build_object('code',
            'job.message.restarted', 'args', jsonb_build_array(substring(message FROM 'after (\S+)$')))
        WHEN reason = 'StoppedByUser' AND message ~ '^stopped by \S+$' THEN jsonb_build_object('code',
            'job.message.stopped-by', 'args', jsonb_build_array(substring(message FROM '^stopped by (\S+)$')))
        WHEN message = 'no word from the cluster within the stop grace period'
            THEN '{"code": "job.message.stop-grace"}'::jsonb
        WHEN reason = 'SubmitFailed' AND message LIKE 'the cluster refused the workload: %' THEN jsonb_build_object(
            'code', 'job.message.submit-failed', 'args', jsonb_build_array(substring(message FROM 35)))
        WHEN reason = 'TerminatedByFaultHandling' AND message LIKE 'terminated by automatic fault handling: %'
            THEN jsonb_build_object('code', 'job.message.terminated', 'args', jsonb_build_array(substring(message FROM 41)))
        WHEN reason = 'Restarting' AND message ~ '^restarted as attempt \d+$' THEN jsonb_build_object('code',
            'job.message.restarting', 'args', jsonb_build_array(substring(message FROM '(\d+)$')))
        WHEN reason = 'Restarting' AND message ~ '^restarted as attempt \d+: ' THEN jsonb_build_object('code',
            'job.message.restarting-because', 'args', jsonb_build_array(substring(message FROM 'attempt (\d+): '),
                substring(message FROM '^restarted as attempt \d+: (.*)$')))
        ELSE NULL
    END
$$;
UPDATE job_transition SET message_text = pg_temp.text_of(reason, message) WHERE message IS NOT NULL;
UPDATE job SET message_text = pg_temp.text_of(reason, message) WHERE message IS NOT NULL;

-- The users of each tenant jobmon has seen (every authenticated caller, every job owner): the share dialog
-- suggests them and a share names one of them. Seeded from the jobs stored so far.
CREATE TABLE known_user (
    tenant        varchar(64)  NOT NULL,
    name          varchar(128) NOT NULL,
    groups        text[]       NOT NULL DEFAULT '{}',
    first_seen_at timestamptz  NOT NULL DEFAULT now(),
    last_seen_at  timestamptz  NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant, name)
);
-- "q" matches a prefix of the name, case-insensitively.
CREATE INDEX known_user_prefix ON known_user (tenant, lower(name) text_pattern_ops);
INSERT INTO known_user (tenant, name, first_seen_at, last_seen_at)
SELECT tenant, owner, min(submitted_at), max(submitted_at) FROM job GROUP BY tenant, owner
ON CONFLICT DO NOTHING;
INSERT INTO known_user (tenant, name)
SELECT DISTINCT tenant, unnest(shares) FROM job
ON CONFLICT DO NOTHING;
