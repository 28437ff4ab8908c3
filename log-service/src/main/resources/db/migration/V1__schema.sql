-- log-service owns this schema; no other service reads it.
-- job_access (the job-access read model) is contracts' table, created by its migration V0_1 (db/shared/job-access).
-- (Until contracts owned it this migration created it; docs/adr/0014-shared-tables-owned-by-contracts.md.)
SELECT 1;
