package io.jobmon.jobs.job.rest;

import io.jobmon.contracts.events.JobStatus;
import io.jobmon.contracts.i18n.I18n;
import io.jobmon.contracts.i18n.Text;
import io.jobmon.contracts.i18n.Texts;
import io.jobmon.jobs.job.model.JobRecord;
import io.jobmon.jobs.job.model.SubState;
import io.jobmon.jobs.job.rest.dto.JobStatusInfo;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * The texts that explain a job beyond its reason, in the reader's language: what a status means and what to do
 * next ({@code status.<S>.meaning}, {@code status.<S>.next}), a sub-state ({@code substate.<S>}), a failure
 * reason (a reason's explanation, or a diagnosis category's name), a pod condition's name.
 */
@ApplicationScoped
public class JobTexts {

    /** The pod condition types the kubelet and the scheduler set, each with {@code pod.condition-type.<type>}. */
    static final Set<String> CONDITION_TYPES = Set.of("PodScheduled", "Initialized", "ContainersReady", "Ready",
            "DisruptionTarget", "PodReadyToStartContainers");

    private final I18n i18n;

    public JobTexts(I18n i18n) {
        this.i18n = i18n;
    }

    /** Every status with its meaning and next step, in lifecycle order. */
    public List<JobStatusInfo> statuses(Texts t) {
        return Arrays.stream(JobStatus.values()).map(s -> new JobStatusInfo(s, statusText(s, t), meaning(s, t),
                nextStep(s, t), s.isWaiting(), s.isFinal())).toList();
    }

    static String statusText(JobStatus s, Texts t) {
        return s == null ? null : t.text("status." + s.name());
    }

    static String meaning(JobStatus s, Texts t) {
        return t.text("status." + s.name() + ".meaning");
    }

    static String nextStep(JobStatus s, Texts t) {
        return t.text("status." + s.name() + ".next");
    }

    /** What the job's sub-state means and what to do, or null without one. */
    static String subStateText(JobRecord j, SubState s, Texts t) {
        if (s == null) {
            return null;
        }
        return switch (s) {
            case RETRYING -> j.diagnosisId() != null
                    ? t.text(Text.of("substate.RETRYING.diagnosis", j.attempt(), j.diagnosisId()))
                    : t.text(Text.of("substate.RETRYING", j.attempt()));
            default -> t.text("substate." + s.name());
        };
    }

    /**
     * A failure reason's stable code and its text: a Kubernetes or jobmon reason's {@code reasonCode} and
     * explanation, or a diagnosis category and its name ({@code START_COMMAND_ERROR}: 启动命令错误); null for a
     * reason jobmon does not know.
     */
    Texts.Explained failure(String reason, Texts t) {
        if (reason == null) {
            return null;
        }
        Texts.Explained known = t.reason(reason, null);
        if (known != null) {
            return known;
        }
        return i18n.catalogue().has("category." + reason) ? new Texts.Explained(reason, t.text("category." + reason))
                : null;
    }

    /** A pod condition type's name in the reader's language, or null for a type jobmon does not know. */
    static String conditionType(String type, Texts t) {
        return type != null && CONDITION_TYPES.contains(type) ? t.text("pod.condition-type." + type) : null;
    }
}
