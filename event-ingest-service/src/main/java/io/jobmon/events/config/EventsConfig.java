package io.jobmon.events.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** The event store and the ingest consumer. */
@ConfigMapping(prefix = "jobmon.events")
public interface EventsConfig {

    /** Days events are kept (by the day the event object was created); older day partitions are dropped. */
    @WithDefault("90")
    int retentionDays();

    /** Day partitions created ahead of today by the daily maintenance. */
    @WithDefault("3")
    int partitionsAhead();

    /** Per job, object (pod or Job, and container) and reason: event objects kept before only the latest is. */
    @WithDefault("1")
    int quotaFirstPerReason();

    /**
     * Jobs whose state a consumer keeps in memory between batches (checked against the stored version before
     * use): a batch touching kept jobs reads only their version. 0 reads every job from the store.
     */
    @WithDefault("10000")
    int stateCacheJobs();

    /** Where transitions are published: {@code jobmon.job.status} (another name only for a benchmark's own run). */
    @WithDefault("jobmon.job.status")
    String statusTopic();
}
