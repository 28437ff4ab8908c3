-- What each diagnosis read from the platform (lines per log read, events and pages, metric series and points):
-- shown with the diagnosis, so a reader knows what it rests on.
ALTER TABLE diagnosis ADD COLUMN evidence_read JSONB;

-- A job that already ended for a platform-side cause (node failure, preemption, eviction, NCCL, GPU hardware) is
-- restarted on one JOB_FAILED diagnosis: such a decision has no first diagnosis.
ALTER TABLE fault_action ALTER COLUMN first_diagnosis_id DROP NOT NULL;
