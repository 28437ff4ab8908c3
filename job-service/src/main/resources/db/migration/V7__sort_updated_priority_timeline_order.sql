-- Issue #29: the list sorts by updatedAt and priority too, and the timeline reads in the order things happened.
--  * scope=all (admins) sorted by the last change, and by priority (LOW < NORMAL < HIGH as 0, 1, 2: the very
--    expression JobListRepository.PRIORITY_RANK sorts by, or the planner cannot use the index). scope=mine reads
--    the owner's rows (a few thousand at most) through job_mine and sorts them; no index per owner is needed.
CREATE INDEX job_tenant_updated ON job (tenant, updated_at, id);
CREATE INDEX job_tenant_priority ON job (tenant, (CASE priority WHEN 'LOW' THEN 0 WHEN 'NORMAL' THEN 1 ELSE 2 END), id);
--  * the timeline is ordered by id: the order job-service applied the transitions in (a job's transitions are
--    written under its row lock, so ids increase in that order), not by their times, which come from two clocks
--    (the cluster's, often cut to whole seconds, and jobmon's). ADR 0017.
DROP INDEX job_transition_job;
CREATE INDEX job_transition_job ON job_transition (job_id, id);
