package io.jobmon.sim.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.jobmon.sim.JobServiceWorkload;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The pods the Job controller makes of a job-service Job, as a real controller and API server would. */
class JobPodsTest {

    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    private static Job job(int replicas) {
        Job job = JobServiceWorkload.build("job-7", "jobmon-jobs", replicas, 8, Map.of("team", "nlp"));
        job.getMetadata().setUid("uid-7");
        return job;
    }

    @Test
    void anIndexedPodIsNamedByIndexAndCarriesTheTemplateAndControllerLabels() {
        Pod pod = JobPods.build(job(2), 1, "x7k2p", 10_000, JSON);
        assertEquals("job-7-1-x7k2p", pod.getMetadata().getName());
        assertEquals("job-7-1-", pod.getMetadata().getGenerateName());
        Map<String, String> labels = pod.getMetadata().getLabels();
        assertEquals("job-7", labels.get("jobmon.io/job-id"));
        assertEquals("nlp", labels.get("team"));
        assertEquals("uid-7", labels.get("batch.kubernetes.io/controller-uid"));
        assertEquals("uid-7", labels.get("controller-uid"));
        assertEquals("job-7", labels.get("job-name"));
        assertEquals("1", labels.get("batch.kubernetes.io/job-completion-index"));
        assertEquals("1", pod.getMetadata().getAnnotations().get("batch.kubernetes.io/job-completion-index"));
        assertEquals("job-7-1", pod.getSpec().getHostname());
        assertTrue(pod.getSpec().getContainers().get(0).getEnv().stream().anyMatch(e -> "JOB_COMPLETION_INDEX".equals(e.getName())
                && e.getValueFrom().getFieldRef().getFieldPath().contains("job-completion-index")));
    }

    @Test
    void thePodIsOwnedByItsJobAndHeldByTheTrackingFinalizer() {
        Pod pod = JobPods.build(job(1), null, "abcde", 10_000, JSON);
        assertEquals("job-7-abcde", pod.getMetadata().getName());
        var owner = pod.getMetadata().getOwnerReferences().get(0);
        assertEquals(List.of("Job", "job-7", "uid-7", true, true), List.of(owner.getKind(), owner.getName(), owner.getUid(),
                owner.getController(), owner.getBlockOwnerDeletion()));
        assertEquals(List.of("batch.kubernetes.io/job-tracking"), pod.getMetadata().getFinalizers());
    }

    @Test
    void admissionDefaultsAreFilledIn() {
        Pod pod = JobPods.build(job(1), null, "abcde", 10_000, JSON);
        assertEquals(10_000, pod.getSpec().getPriority());
        assertEquals("default-scheduler", pod.getSpec().getSchedulerName());
        assertEquals(30L, pod.getSpec().getTerminationGracePeriodSeconds());
        assertEquals("Guaranteed", pod.getStatus().getQosClass());
        assertEquals("Pending", pod.getStatus().getPhase());
        assertEquals("IfNotPresent", pod.getSpec().getContainers().get(0).getImagePullPolicy());
        assertTrue(pod.getSpec().getTolerations().stream().anyMatch(t -> "node.kubernetes.io/unreachable".equals(t.getKey())
                && t.getTolerationSeconds() == 300L));
    }

    @Test
    void generatedSuffixesUseTheApiServersAlphabet() {
        String s = JobPods.suffix(new Random(1));
        assertEquals(5, s.length());
        assertTrue(s.chars().allMatch(c -> "bcdfghjklmnpqrstvwxz2456789".indexOf(c) >= 0), s);
    }
}
