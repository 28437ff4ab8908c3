package io.jobmon.diagnosis.engine;

/**
 * The root-cause categories of the diagnosis contract ({@code shared/design/diagnosis.md}).
 * Serialised by Jackson as the constant name, e.g. {@code "GPU_OOM"}.
 */
public enum Category {
    QUOTA_EXCEEDED,
    INSUFFICIENT_RESOURCES,
    SCHEDULING_CONSTRAINT,
    IMAGE_PULL_FAILED,
    VOLUME_MOUNT_FAILED,
    START_COMMAND_ERROR,
    CONTAINER_OOM,
    GPU_OOM,
    NCCL_COMMUNICATION_ERROR,
    GPU_HARDWARE_FAULT,
    NODE_FAILURE,
    PREEMPTED,
    EVICTED,
    DEPENDENCY_MISSING,
    DATA_PATH_ERROR,
    USER_CODE_ERROR,
    TRAINING_HANG,
    GPU_THERMAL_THROTTLING,
    DATA_LOADING_BOTTLENECK,
    TRAINING_SLOWDOWN,
    HEALTHY,
    UNKNOWN
}
