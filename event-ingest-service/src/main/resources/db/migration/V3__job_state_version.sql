-- Every write of a job's state (its row, pods or event quota) raises its version. A consumer keeps the jobs it
-- applied last in memory and reloads one only when the locked row's version is not the one it wrote.
ALTER TABLE job_state ADD COLUMN version BIGINT NOT NULL DEFAULT 0;
