-- outbox is contracts' table (outbox.Outbox), created by its migration V0_3 (db/shared/outbox;
-- docs/adr/0014-shared-tables-owned-by-contracts.md).
INSERT INTO outbox (topic, record_key, payload, created_at)
SELECT 'jobmon.job.status', job_id, payload, created_at FROM status_outbox ORDER BY id;
DROP TABLE status_outbox;
