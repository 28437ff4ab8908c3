package io.jobmon.sim.control;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatus;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.jobmon.sim.clock.SimClock;
import io.jobmon.sim.scenario.Scenarios;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Job controller and the garbage collector's part for Jobs. For each Job it creates the missing pods (passing
 * admission: PriorityClass, ResourceQuota; a denial is a {@code FailedCreate} event and a retry with backoff),
 * counts its pods into the status ({@code active}, {@code ready}, {@code succeeded}, {@code failed},
 * {@code completedIndexes}), ends it Complete or Failed ({@code BackoffLimitExceeded}; the remaining pods are
 * deleted), and drops the tracking finalizer of every pod it counted. A deleted Job's pods are deleted; a Job deleted
 * in the foreground keeps its {@code foregroundDeletion} finalizer until its pods are gone.
 */
public final class JobController {

    private static final Logger LOG = LoggerFactory.getLogger(JobController.class);
    private static final String COMPONENT = "job-controller";
    private static final Duration FIRST_RETRY = Duration.ofSeconds(10);
    private static final Duration MAX_RETRY = Duration.ofMinutes(5);
    private static final String BACKOFF_MESSAGE = "Job has reached the specified backoff limit";
    private static final String COMPLETE_MESSAGE = "Reached expected number of succeeded pods";

    private final Kube kube;
    private final EventRecorder events;
    private final SimClock clock;
    private final Random random;
    private final Set<String> dirty = new LinkedHashSet<>();
    private boolean flushQueued;
    private final Map<String, String> jobKeyByUid = new HashMap<>();
    /** Uids of Jobs seen deleted: their pods are garbage. */
    private final Set<String> goneJobs = new HashSet<>();
    /** Per Job uid: the pods already counted as ended, pod uid → completion index or -1 (succeeded) / FAILED. */
    private final Map<String, Map<String, Integer>> counted = new HashMap<>();
    private final Map<String, Integer> createFailures = new HashMap<>();
    private final Set<String> retryPending = new HashSet<>();
    private final PodAdmission admission;

    private static final int FAILED = Integer.MIN_VALUE;

    public JobController(Kube kube, EventRecorder events, SimClock clock, Random random) {
        this.kube = kube;
        this.events = events;
        this.clock = clock;
        this.random = random;
        this.admission = new PodAdmission(kube);
        kube.onChange(this::onChange);
    }

    private void onChange(Kube.Change c) {
        if (c.object() instanceof Job job) {
            if (Replay.is(job)) {
                return;
            }
            String key = Kube.key(job);
            if (c.deleted()) {
                jobKeyByUid.remove(job.getMetadata().getUid());
                goneJobs.add(job.getMetadata().getUid());
                collect(job.getMetadata().getUid());
                return;
            }
            jobKeyByUid.put(job.getMetadata().getUid(), key);
            enqueue(key);
        } else if (c.object() instanceof Pod pod) {
            String owner = Kube.ownerUid(pod);
            if (owner == null) {
                return;
            }
            String key = jobKeyByUid.get(owner);
            if (key != null) {
                enqueue(key);
            } else if (!c.deleted() && goneJobs.contains(owner)) {
                clock.execute(() -> collectOrphan(pod));
            }
        }
    }

    private void enqueue(String key) {
        dirty.add(key);
        if (!flushQueued) {
            flushQueued = true;
            clock.execute(this::flush);
        }
    }

    private void flush() {
        flushQueued = false;
        List<String> keys = new ArrayList<>(dirty);
        dirty.clear();
        for (String key : keys) {
            try {
                kube.job(key).ifPresent(this::sync);
            } catch (KubernetesClientException e) {
                LOG.warn("job {}: {}", key, e.getMessage());
            }
        }
    }

    private void sync(Job job) {
        String uid = job.getMetadata().getUid();
        if (job.getMetadata().getDeletionTimestamp() != null) {
            deleteInForeground(job);
            return;
        }
        if (Boolean.TRUE.equals(job.getSpec().getSuspend()) || Scenarios.REPLAY.equals(Scenarios.nameOf(job))) {
            return;
        }
        List<Pod> pods = kube.podsOwnedBy(uid);
        if (finished(job)) {
            releaseFinalizers(pods, true);
            return;
        }
        boolean indexed = "Indexed".equals(job.getSpec().getCompletionMode());
        int completions = job.getSpec().getCompletions() == null ? 1 : job.getSpec().getCompletions();
        int parallelism = job.getSpec().getParallelism() == null ? 1 : job.getSpec().getParallelism();
        int backoffLimit = job.getSpec().getBackoffLimit() == null ? 6 : job.getSpec().getBackoffLimit();

        Map<String, Integer> ended = counted.computeIfAbsent(uid, u -> new HashMap<>());
        List<Pod> active = new ArrayList<>();
        for (Pod p : pods) {
            if (ended.containsKey(p.getMetadata().getUid())) {
                continue;
            }
            if (PodPhases.succeeded(p)) {
                ended.put(p.getMetadata().getUid(), index(p) == null ? -1 : index(p));
            } else if (PodPhases.failed(p) || p.getMetadata().getDeletionTimestamp() != null) {
                ended.put(p.getMetadata().getUid(), FAILED);
            } else {
                active.add(p);
            }
        }
        JobTally tally = new JobTally();
        ended.values().forEach(v -> {
            if (v == FAILED) {
                tally.countFailed();
            } else {
                tally.countSucceeded(v < 0 ? null : v);
            }
        });
        active.forEach(p -> tally.countActive(PodPhases.ready(p)));

        JobTally.Outcome outcome = tally.outcome(completions, backoffLimit, indexed);
        if (outcome == JobTally.Outcome.FAILED) {
            for (Pod p : active) {
                kube.deletePod(Kube.key(p));
                events.record(EventRecorder.Ref.of(job), "Normal", "SuccessfulDelete",
                        "Deleted pod: " + p.getMetadata().getName(), COMPONENT, null);
            }
            events.record(EventRecorder.Ref.of(job), "Warning", "BackoffLimitExceeded", BACKOFF_MESSAGE, COMPONENT, null);
        } else if (outcome == JobTally.Outcome.COMPLETE) {
            events.record(EventRecorder.Ref.of(job), "Normal", "Completed", "Job completed", COMPONENT, null);
        } else {
            createMissing(job, active, tally, indexed, completions, parallelism);
        }
        writeStatus(job, tally, outcome, active);
        releaseFinalizers(pods.stream().filter(p -> ended.containsKey(p.getMetadata().getUid())).toList(), false);
    }

    private void createMissing(Job job, List<Pod> active, JobTally tally, boolean indexed, int completions,
            int parallelism) {
        String key = Kube.key(job);
        if (retryPending.contains(key)) {
            return;
        }
        List<Integer> missing = new ArrayList<>();
        if (indexed) {
            Set<Integer> taken = new HashSet<>(tally.completedIndexes());
            active.forEach(p -> taken.add(index(p)));
            for (int i = 0; i < completions && missing.size() + active.size() < parallelism; i++) {
                if (!taken.contains(i)) {
                    missing.add(i);
                }
            }
        } else {
            int want = Math.min(parallelism, completions - tally.succeeded()) - active.size();
            for (int i = 0; i < want; i++) {
                missing.add(null);
            }
        }
        boolean denied = false;
        for (Integer index : missing) {
            int priority = priorityOf(job);
            Pod pod = JobPods.build(job, index, JobPods.suffix(random), priority, kube.json());
            Optional<String> denial = admission.admit(pod);
            if (denial.isPresent()) {
                denied = true;
                events.record(EventRecorder.Ref.of(job), "Warning", "FailedCreate", "Error creating: " + denial.get(),
                        COMPONENT, null);
                continue;
            }
            kube.create(pod);
            events.record(EventRecorder.Ref.of(job), "Normal", "SuccessfulCreate",
                    "Created pod: " + pod.getMetadata().getName(), COMPONENT, null);
        }
        if (denied) {
            int failures = createFailures.merge(key, 1, Integer::sum);
            Duration wait = FIRST_RETRY.multipliedBy(1L << Math.min(failures - 1, 10));
            retryPending.add(key);
            clock.schedule(wait.compareTo(MAX_RETRY) > 0 ? MAX_RETRY : wait, () -> {
                retryPending.remove(key);
                enqueue(key);
            });
        } else if (!missing.isEmpty()) {
            createFailures.remove(key);
        }
    }

    private int priorityOf(Job job) {
        String pc = job.getSpec().getTemplate().getSpec().getPriorityClassName();
        return pc == null ? 0 : kube.priorityClasses().getOrDefault(pc, 0);
    }

    private void writeStatus(Job job, JobTally tally, JobTally.Outcome outcome, List<Pod> active) {
        String now = EventRecorder.seconds(clock.now());
        kube.updateJobStatus(Kube.key(job), j -> {
            JobStatus s = j.getStatus() == null ? new JobStatus() : j.getStatus();
            if (s.getStartTime() == null) {
                s.setStartTime(now);
            }
            boolean ended = outcome != JobTally.Outcome.RUNNING;
            s.setActive(ended ? null : nonZero(tally.active()));
            s.setReady(ended ? 0 : tally.ready());
            s.setTerminating(0);
            s.setSucceeded(nonZero(tally.succeeded()));
            s.setFailed(nonZero(tally.failed()));
            s.setCompletedIndexes(tally.completedIndexesText());
            s.setUncountedTerminatedPods(new io.fabric8.kubernetes.api.model.batch.v1.UncountedTerminatedPods());
            List<JobCondition> conditions = new ArrayList<>(s.getConditions() == null ? List.of() : s.getConditions());
            if (outcome == JobTally.Outcome.FAILED) {
                conditions.add(condition("FailureTarget", "BackoffLimitExceeded", BACKOFF_MESSAGE, now));
                conditions.add(condition("Failed", "BackoffLimitExceeded", BACKOFF_MESSAGE, now));
            } else if (outcome == JobTally.Outcome.COMPLETE) {
                conditions.add(condition("SuccessCriteriaMet", "CompletionsReached", COMPLETE_MESSAGE, now));
                conditions.add(condition("Complete", "CompletionsReached", COMPLETE_MESSAGE, now));
                s.setCompletionTime(now);
            }
            s.setConditions(conditions.isEmpty() ? null : conditions);
            j.setStatus(s);
        });
    }

    private static Integer nonZero(int v) {
        return v == 0 ? null : v;
    }

    private static JobCondition condition(String type, String reason, String message, String now) {
        return new JobConditionBuilder().withType(type).withStatus("True").withReason(reason).withMessage(message)
                .withLastProbeTime(now).withLastTransitionTime(now).build();
    }

    static boolean finished(Job job) {
        return job.getStatus() != null && job.getStatus().getConditions() != null && job.getStatus().getConditions()
                .stream().anyMatch(c -> ("Complete".equals(c.getType()) || "Failed".equals(c.getType()))
                        && "True".equals(c.getStatus()));
    }

    /** Drops the tracking finalizer of pods that ended (or, for a finished Job, of every pod that will not run). */
    private void releaseFinalizers(List<Pod> pods, boolean jobFinished) {
        for (Pod p : pods) {
            List<String> f = p.getMetadata().getFinalizers();
            if (f == null || !f.contains(JobPods.TRACKING_FINALIZER)) {
                continue;
            }
            boolean done = PodPhases.terminal(p) || (jobFinished && !PodPhases.running(p));
            if (done) {
                List<String> rest = new ArrayList<>(f);
                rest.remove(JobPods.TRACKING_FINALIZER);
                kube.setPodFinalizers(Kube.key(p), rest);
            }
        }
    }

    /** A Job deleted with propagationPolicy Foreground: delete its pods, then let it go. */
    private void deleteInForeground(Job job) {
        List<Pod> pods = kube.podsOwnedBy(job.getMetadata().getUid());
        deletePodsOf(pods);
        List<String> finalizers = job.getMetadata().getFinalizers();
        if (pods.isEmpty() && finalizers != null && finalizers.contains("foregroundDeletion")) {
            List<String> rest = new ArrayList<>(finalizers);
            rest.remove("foregroundDeletion");
            kube.setJobFinalizers(Kube.key(job), rest);
        }
    }

    /** The Job is gone: delete its pods (background propagation). */
    private void collect(String jobUid) {
        clock.execute(() -> deletePodsOf(kube.podsOwnedBy(jobUid)));
    }

    /** A pod of a Job seen deleted (its deletion, then its finalizer once it ended). */
    private void collectOrphan(Pod pod) {
        kube.pod(Kube.key(pod)).ifPresent(p -> deletePodsOf(List.of(p)));
    }

    private void deletePodsOf(List<Pod> pods) {
        for (Pod p : pods) {
            String key = Kube.key(p);
            if (p.getMetadata().getDeletionTimestamp() == null) {
                kube.deletePod(key);
            }
            kube.pod(key).ifPresent(now -> releaseFinalizers(List.of(now), true));
        }
    }

    private static Integer index(Pod p) {
        String v = p.getMetadata().getLabels() == null ? null : p.getMetadata().getLabels().get(JobPods.COMPLETION_INDEX);
        return v == null ? null : Integer.valueOf(v);
    }
}
