-- Shipped as the move from job-service's first outbox (one row per job) to the suite's one outbox. Since contracts
-- owns the outbox (its migration V0_3, db/shared/outbox; docs/adr/0014-shared-tables-owned-by-contracts.md) a new
-- schema never has the first one, and a schema that had it was moved by the shipped text of this migration.
SELECT 1;
