package io.jobmon.diagnosis.config;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

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

        /** Heap that admitted analyses may need together; unset: 60 % of the maximum heap. A request that does not
         * fit answers 503 with Retry-After before its body is read. */
        Optional<MemorySize> memoryBudget();

        /** Heap an analysis needs per byte of bundle (body, its copy, the JSON tree and the bundle; measured by
         * bench/AnalyzeMemoryProbe at 6.3 live, 7.8 with garbage). */
        @WithDefault("7")
        double memoryFactor();

        /** What a refused request is told to wait ({@code Retry-After}). */
        @WithDefault("2s")
        Duration retryAfter();
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

    /** Gathering evidence from the other services; every read is bounded. */
    interface Evidence {
        /** The job's last user lines (its containers' output) read from the window. */
        @WithDefault("5000")
        int maxLogLines();

        /** The last system lines (kubelet, containerd, kernel of its nodes) read from the window. */
        @WithDefault("1000")
        int maxSystemLines();

        /** The job's last lines before it ended, read when its end lies outside the window. */
        @WithDefault("200")
        int endLines();

        /** Keywords searched over the whole run (case-insensitive, one log-service search each, answered from its
         * keyword filters): the catalogue's forms of causes that come long before the failure. */
        @WithDefault("xid,fallen off the bus,double bit,ecc error,nccl warn,nccl error,watchdog caught collective "
                + "operation timeout,timeout at nccl work,collective operation timeout,out of memory,outofmemoryerror,"
                + "device-side assert,illegal memory access,segmentation fault,no space left on device,kernel panic,"
                + "soft lockup,dataloader timed out after,preempt,evicted")
        List<String> runKeywords();

        /** First lines kept per keyword. */
        @WithDefault("20")
        int runKeywordLines();

        /** How long the keyword searches may take together; those not answered by then are left out (named in
         * {@code sourceErrors}). */
        @WithDefault("4s")
        Duration runKeywordBudget();

        /** Most events read for the window (event-ingest pages of 500). */
        @WithDefault("2000")
        int maxEvents();

        /** Most pods read (job-service pages of 500). */
        @WithDefault("2000")
        int maxPods();

        /**
         * metrics-service names read when a task names none: the job's GPUs' utilisation, memory, temperature, power,
         * clocks and throttling, Xid, ECC, retired pages and remapped rows, NVLink and PCIe errors (by pod labels or
         * by the GPUs its pods held: metrics-service's attribution {@code gpu}).
         */
        @WithDefault("gpu_util,gpu_mem_used,gpu_temp,gpu_mem_temp,gpu_power,sm_active,tensor_active,sm_clock,mem_clock,"
                + "throttle_reasons,xid,ecc_sbe,ecc_dbe,ecc_dbe_agg,retired_pages_dbe,retired_pages_pending,"
                + "remapped_rows_uncorrectable,remapped_rows_correctable,row_remap_failure,pcie_replays,"
                + "nvlink_crc_flit_errors,nvlink_crc_data_errors,nvlink_replay_errors,nvlink_recovery_errors")
        List<String> defaultMetrics();

        /** Most points per series of the run-long read: 1-minute steps for the first 3 days of a run, whole minutes
         * keeping a longer run within this many points. */
        @WithDefault("4320")
        int maxRunPoints();

        /** Most points per series of the metric snapshot kept with a diagnosis (repeated values dropped first, then
         * thinned keeping the shape: largest-triangle-three-buckets). */
        @WithDefault("300")
        int snapshotPoints();

        /** Calls to the sources in flight at once, over all tasks of this instance. */
        @WithDefault("8")
        int parallelCalls();
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

        /**
         * One failure, one automatic diagnosis: a job reported FAILED or ABNORMAL again within this time of its last
         * automatic diagnosis (ABNORMAL then FAILED, a crash loop) is not diagnosed again.
         */
        @WithDefault("30m")
        Duration failureEpisode();
    }

    /** Automatic fault handling of running jobs that opted in ({@code autoFaultHandling}). */
    interface AutoFault {
        /** Diagnose opted-in running jobs periodically and act on two agreeing diagnoses. */
        @WithDefault("true")
        boolean enabled();

        /** Time between two periodic diagnoses of one job. */
        @WithDefault("5m")
        Duration interval();

        /**
         * No periodic diagnosis of a job before it has run this long: a job just started has no progress to judge
         * yet (its first check would say UNKNOWN, or worse).
         */
        @WithDefault("10m")
        Duration warmUp();

        /** Opted-in jobs scheduled per round of one instance. */
        @WithDefault("50")
        int batchSize();

        /** After an automatic action on a job, no new one for this long. */
        @WithDefault("30m")
        Duration cooldown();

        /** Root causes on the platform's side: a job that opted in and ended for one of them is restarted as the
         * next attempt of its chain on its one JOB_FAILED diagnosis (retries and restart support permitting). */
        @WithDefault("NODE_FAILURE,PREEMPTED,EVICTED,NCCL_COMMUNICATION_ERROR,GPU_HARDWARE_FAULT")
        java.util.Set<String> restartOnFailure();

        /** The least confidence of such a diagnosis to restart on (below it, the evidence decides too little). */
        @WithDefault("0.5")
        double minConfidence();
    }
}
