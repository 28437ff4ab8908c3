package io.jobmon.diagnosis.config;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;

/** Settings of diagnosis-service ({@code jobmon.diagnosis.*}); each can be set by environment variable. */
@ConfigMapping(prefix = "jobmon.diagnosis")
public interface DiagnosisConfig {

    Analyze analyze();

    Tasks tasks();

    Evidence evidence();

    Automatic automatic();

    AutoFault autoFault();

    /** {@code POST /api/v1/diagnoses/analyze} and every analysis the service runs. */
    interface Analyze {
        /** Largest evidence bundle accepted; a larger body answers 413. */
        @WithDefault("32M")
        MemorySize maxBundleSize();

        /** An analysis (parse + engine) that takes longer answers 503; the engine is linear, this is a guard. */
        @WithDefault("20s")
        Duration timeout();

        /** Threads that run analyses; each analysis uses one core. */
        @WithDefault("2")
        int threads();

        /** Analyses that may wait for a thread; beyond that the request answers 503 at once. */
        @WithDefault("16")
        int queue();
    }

    /** Diagnosis tasks ({@code POST /api/v1/jobs/{id}/diagnoses} and the automatic ones). */
    interface Tasks {
        /** Longest evidence window a task may ask for, and the default window (ending now). */
        @WithDefault("30m")
        Duration maxWindow();

        /** Tasks one instance runs at the same time. */
        @WithDefault("2")
        int concurrency();

        /** A RUNNING task whose instance has not finished it within this is taken over by another. */
        @WithDefault("3m")
        Duration claimTtl();

        /** A user's task is first run by the instance that took it (with the user's token); after this any
         * instance may pick it up (with the service account's token). */
        @WithDefault("30s")
        Duration handoff();

        /** Attempts before a task is marked FAILED. */
        @WithDefault("3")
        int maxAttempts();

        /** How often each instance looks for tasks to run (also in {@code @Scheduled}). */
        @WithDefault("2s")
        Duration pollInterval();

    }

    /** Gathering evidence from the other services. */
    interface Evidence {
        /** Most recent log lines asked from log-service per diagnosis. */
        @WithDefault("5000")
        int maxLogLines();

        /** metrics-service names (its {@code /api/v1/metrics/catalogue}) analysed when a task names none. */
        @WithDefault("gpu_util,gpu_mem_used,gpu_temp,gpu_power,sm_active,tensor_active,xid,ecc_dbe,throttle_reasons,sm_clock")
        List<String> defaultMetrics();
    }

    /** Diagnoses nobody asked for: when a job becomes FAILED or ABNORMAL, and periodic ones. */
    interface Automatic {
        /** Diagnose a job automatically when it becomes FAILED or ABNORMAL. */
        @WithDefault("true")
        boolean onFailure();

        /** Language of automatic diagnoses' summary and suggestion ({@code en} or {@code zh}). */
        @WithDefault("en")
        String locale();

        /** Fetch a client-credentials token (quarkus.oidc-client.*) to gather evidence for automatic
         * diagnoses; without it they use only what the service knows from Kafka. */
        @WithDefault("false")
        boolean serviceAccount();
    }

    /** Automatic fault handling of running jobs that opted in ({@code autoFaultHandling}). */
    interface AutoFault {
        /** Diagnose opted-in running jobs periodically and act on two agreeing diagnoses. */
        @WithDefault("true")
        boolean enabled();

        /** Time between two periodic diagnoses of one job. */
        @WithDefault("5m")
        Duration interval();

        /** Opted-in jobs scheduled per round of one instance. */
        @WithDefault("50")
        int batchSize();

        /** After an automatic action on a job, no new one for this long. */
        @WithDefault("30m")
        Duration cooldown();
    }
}
