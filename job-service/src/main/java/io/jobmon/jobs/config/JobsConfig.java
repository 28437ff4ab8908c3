package io.jobmon.jobs.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;

/** The rules of job submission and the job actions. */
@ConfigMapping(prefix = "jobmon.jobs")
public interface JobsConfig {

    /** Queue (resource pool) of a submission that names none. */
    @WithDefault("default")
    String defaultQueue();

    /** Most pods a job may ask for. */
    @WithDefault("4096")
    int maxReplicas();

    /** Most GPUs one replica may ask for. */
    @WithDefault("16")
    int maxGpusPerReplica();

    /** Retry limit a submission may set at most. */
    @WithDefault("10")
    int maxRetriesLimit();

    /** Command of a DEBUG resubmit that names none: keeps the container alive so the user can get in. */
    @WithDefault("sleep,infinity")
    List<String> debugCommand();

    /** How long a job may stay STOPPING before it is recorded as STOPPED without a word from its cluster. */
    @WithDefault("PT2M")
    Duration stopGrace();

    /** How often the sweeper looks for jobs STOPPING longer than {@code stop-grace}. */
    @WithDefault("30s")
    String sweepInterval();

    /**
     * A job its cluster has not reported on (no pod, no event) for this long since its submission says so in its
     * message ("no report from cluster X for 12 min") instead of waiting silently.
     */
    @WithDefault("10m")
    Duration silentClusterAfter();

    /**
     * How long the GPUs read from a {@code kubernetes} cluster's nodes (their allocatable {@code nvidia.com/gpu} by
     * {@code nvidia.com/gpu.product}) stand for its capacity before they are read again (ADR 0019).
     */
    @WithDefault("60s")
    Duration nodeCapacityTtl();

    /** A job of priority HIGH runs with the Kubernetes priority class {@code <prefix>high}, and so on. */
    @WithDefault("jobmon-")
    String priorityClassPrefix();

    Tags tags();

    Commands commands();

    /** What job-service requires of a command on jobmon.job.commands before it acts on it. */
    interface Commands {
        /** CloudEvent sources whose commands are taken (the producer of automatic fault handling). */
        @WithDefault("/jobmon/diagnosis-service")
        List<String> trustedSources();

        /**
         * How long a command may wait for the diagnoses it names to arrive on jobmon.diagnoses (read independently)
         * before it is dead-lettered as unjustified.
         */
        @WithDefault("2m")
        Duration diagnosisWait();
    }

    Volumes volumes();

    interface Tags {
        /** Most tags on one job. */
        @WithDefault("20")
        int maxCount();

        /** Longest tag. */
        @WithDefault("32")
        int maxLength();

        /** What a tag may look like (letters of any script, digits, {@code _ . -}). */
        @WithDefault("[\\p{L}\\p{N}][\\p{L}\\p{N}_.-]*")
        String pattern();
    }

    interface Volumes {
        /**
         * {@code project}: a volume belongs to the project of the job that mounts it, and only members of that
         * project group (or admins) may mount it, so cloning a job of another project drops its volumes with a
         * warning; {@code open}: anybody may mount any volume.
         */
        @WithDefault("project")
        String policy();
    }
}
