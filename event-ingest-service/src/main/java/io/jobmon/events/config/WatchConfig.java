package io.jobmon.events.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** The watchers of the {@code kubernetes} clusters. */
@ConfigMapping(prefix = "jobmon.watch")
public interface WatchConfig {

    /** Start a watcher per kubernetes cluster at startup (off for a consumer-only replica). */
    @WithDefault("true")
    boolean enabled();

    /** The label that marks a pod (and its Job) as a jobmon job's, its value the job id. */
    @WithDefault("jobmon.io/job-id")
    String jobLabel();

    /** Informer resync: cached objects are handed out again (republished; deduplicated downstream). 0 disables. */
    @WithDefault("15m")
    Duration resync();

    /**
     * Also watch the events about nodes (NodeNotReady, SystemOOM, disk pressure, node-problem-detector's kernel
     * events), cluster-wide: a job's events include those of its nodes. Needs list/watch on events in every namespace.
     */
    @WithDefault("true")
    boolean nodeEvents();

    /** How long an event about a pod not yet seen waits for that pod before it is dropped as not a job's. */
    @WithDefault("2m")
    Duration pendingEventTtl();

    /**
     * How long a replica's hold on a cluster lasts without renewal: with several replicas, one watches each
     * cluster, and another takes over this long after it stopped renewing.
     */
    @WithDefault("15s")
    Duration leaseDuration();

    /** How often a replica renews the leases it holds and tries to take free ones. */
    @WithDefault("5s")
    Duration leaseRenewEvery();
}
