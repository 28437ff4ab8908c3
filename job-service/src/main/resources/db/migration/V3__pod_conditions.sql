-- The pod's conditions as the kubelet reports them (PodScheduled, Initialized, ContainersReady, Ready...), from
-- jobmon.job.status. NULL for rows written before they were carried: the API then derives PodScheduled and Ready.
ALTER TABLE job_pod ADD COLUMN conditions jsonb;
