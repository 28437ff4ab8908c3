-- What job-service knows of each diagnosis it received on jobmon.diagnoses, so that a command on
-- jobmon.job.commands is executed only when the diagnoses it names exist for its job and justify it (issue #26).
ALTER TABLE diagnosis_applied ADD COLUMN category   varchar(40);
ALTER TABLE diagnosis_applied ADD COLUMN action     varchar(20);
ALTER TABLE diagnosis_applied ADD COLUMN trigger    varchar(20);
CREATE INDEX diagnosis_applied_job ON diagnosis_applied (job_id);
