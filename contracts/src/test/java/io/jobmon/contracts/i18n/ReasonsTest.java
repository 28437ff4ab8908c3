package io.jobmon.contracts.i18n;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Each Kubernetes reason a user meets has a stable code and a one-line explanation in both languages. */
class ReasonsTest {

    final I18n i18n = I18n.defaults();

    @Test
    void theReasonsOfTheIssueHaveStableCodes() {
        assertEquals("unschedulable", Reasons.code("Unschedulable", null));
        assertEquals("unschedulable", Reasons.code("FailedScheduling", "0/8 nodes are available"));
        assertEquals("image-pull-failed", Reasons.code("ImagePullBackOff", null));
        assertEquals("image-pull-failed", Reasons.code("ErrImagePull", null));
        assertEquals("out-of-memory", Reasons.code("OOMKilled", null));
        assertEquals("evicted", Reasons.code("Evicted", null));
        assertEquals("preempted", Reasons.code("Preempted", null));
        assertEquals("node-lost", Reasons.code("NodeLost", null));
        assertEquals("crash-loop", Reasons.code("BackOff", null));
        assertEquals("crash-loop", Reasons.code("CrashLoopBackOff", null));
        assertEquals("quota-exceeded", Reasons.code("ExceededQuota", null));
        assertEquals("quota-exceeded", Reasons.code("exceeded quota", null));
        assertEquals("volume-mount-failed", Reasons.code("FailedMount", null));
        assertEquals("deadline-exceeded", Reasons.code("DeadlineExceeded", null));
        assertEquals("backoff-limit-exceeded", Reasons.code("BackoffLimitExceeded", null));
        assertEquals("pod-deleted", Reasons.code("PodDeleted", null));
        assertEquals("submit-failed", Reasons.code("SubmitFailed", null));
    }

    @Test
    void aPodTheQuotaRefusedIsQuotaExceededNotAnyCreateFailure() {
        assertEquals("quota-exceeded", Reasons.code("FailedCreate",
                "Error creating: pods \"x\" is forbidden: exceeded quota: gpu-quota, requested: nvidia.com/gpu=8"));
        assertEquals("pod-create-failed", Reasons.code("FailedCreate", "Error creating: admission webhook denied"));
    }

    @Test
    void anUnknownOrMissingReasonHasNoCode() {
        assertNull(Reasons.code("SomethingNew", null));
        assertNull(Reasons.code(null, null));
        assertNull(i18n.texts(Locales.EN).reason("SomethingNew", "x"));
    }

    @Test
    void theExplanationFollowsTheReadersLanguageAndTheCodeDoesNot() {
        Texts.Explained en = i18n.texts(Locales.EN).reason("ImagePullBackOff", null);
        Texts.Explained zh = i18n.texts(Locales.ZH_CN).reason("ImagePullBackOff", null);
        assertEquals(en.code(), zh.code());
        assertTrue(en.explanation().startsWith("The image cannot be pulled"), en.explanation());
        assertTrue(zh.explanation().startsWith("无法拉取镜像"), zh.explanation());
    }
}
