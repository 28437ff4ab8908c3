package io.jobmon.contracts.events;

/** The Kafka topics of the suite (architecture.md). A rejected record goes to {@code <topic>.dlq}. */
public final class Topics {
    /** Pod and Event objects as the Kubernetes API returns them; key cluster/namespace/pod. */
    public static final String K8S_RAW = "jobmon.k8s.raw";
    /** Job status transitions derived by event-ingest; key jobId. */
    public static final String JOB_STATUS = "jobmon.job.status";
    /** The job's snapshot after every change (compacted); key jobId. */
    public static final String JOB_CHANGES = "jobmon.job.changes";
    /** RESTART / TERMINATE asked by automatic fault handling; key jobId. */
    public static final String JOB_COMMANDS = "jobmon.job.commands";
    /** Batches of metric samples; key node. */
    public static final String METRICS_SAMPLES = "jobmon.metrics.samples";
    /** Log records in the shippers' own JSON forms (Fluent Bit, Vector); key cluster/namespace/pod/container. */
    public static final String LOGS_LINES = "jobmon.logs.lines";
    /** Which pod held which GPU when ({@link GpuHolding}), from metrics-service; key node/uuid. */
    public static final String GPU_HOLDINGS = "jobmon.gpu.holdings";
    /** Finished diagnoses; key jobId. */
    public static final String DIAGNOSES = "jobmon.diagnoses";

    public static String dlq(String topic) {
        return topic + ".dlq";
    }

    private Topics() {
    }
}
