-- scope=mine with a status filter (the console's most used view): read only the matching rows in order, instead of
-- walking all the owner's rows and fetching each from the heap to check its status (measured: 270 heap fetches for
-- a page of FAILED jobs of a user with 1,000 jobs).
CREATE INDEX job_mine_status ON job (tenant, owner, status, submitted_at, id);
