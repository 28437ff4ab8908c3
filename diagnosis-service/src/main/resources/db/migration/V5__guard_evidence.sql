-- Why a diagnosis may not be acted on automatically: its deciding evidence includes something not shown to be the
-- job's own (a system line of its node without attribution). NULL: every deciding item is the job's own, or a
-- node-wide fault it suffers (issue #24).
ALTER TABLE diagnosis ADD COLUMN foreign_evidence TEXT;
