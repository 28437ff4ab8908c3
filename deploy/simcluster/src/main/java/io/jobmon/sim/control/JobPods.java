package io.jobmon.sim.control;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The pod the Job controller creates for one completion of a Job, with what the API server then adds on admission
 * (defaults, priority, default tolerations), as a real cluster returns it: named {@code <job>-<index>-<5 chars>}
 * (Indexed) or {@code <job>-<5 chars>}, the template's labels plus the controller's ({@code controller-uid},
 * {@code job-name}, their {@code batch.kubernetes.io/} forms and the completion index), owned by the Job,
 * held by the {@code batch.kubernetes.io/job-tracking} finalizer.
 */
public final class JobPods {

    public static final String CONTROLLER_UID = "batch.kubernetes.io/controller-uid";
    public static final String JOB_NAME = "batch.kubernetes.io/job-name";
    public static final String COMPLETION_INDEX = "batch.kubernetes.io/job-completion-index";
    public static final String TRACKING_FINALIZER = "batch.kubernetes.io/job-tracking";
    /** The characters of generated name suffixes (k8s.io/apimachinery/pkg/util/rand). */
    private static final String ALPHANUMS = "bcdfghjklmnpqrstvwxz2456789";

    private JobPods() {
    }

    /** A generated name suffix: five characters that make no words. */
    public static String suffix(Random random) {
        StringBuilder b = new StringBuilder(5);
        for (int i = 0; i < 5; i++) {
            b.append(ALPHANUMS.charAt(random.nextInt(ALPHANUMS.length())));
        }
        return b.toString();
    }

    /**
     * @param index the completion index of an Indexed Job, null for NonIndexed
     * @param priority the value of the pod's PriorityClass
     */
    public static Pod build(Job job, Integer index, String suffix, int priority, KubernetesSerialization json) {
        var template = job.getSpec().getTemplate();
        String jobName = job.getMetadata().getName();
        String uid = job.getMetadata().getUid();
        String prefix = index == null ? jobName + "-" : jobName + "-" + index + "-";

        Map<String, String> labels = new LinkedHashMap<>();
        if (template.getMetadata() != null && template.getMetadata().getLabels() != null) {
            labels.putAll(template.getMetadata().getLabels());
        }
        labels.put(CONTROLLER_UID, uid);
        labels.put(JOB_NAME, jobName);
        labels.put("controller-uid", uid);
        labels.put("job-name", jobName);
        Map<String, String> annotations = new LinkedHashMap<>();
        if (template.getMetadata() != null && template.getMetadata().getAnnotations() != null) {
            annotations.putAll(template.getMetadata().getAnnotations());
        }
        if (index != null) {
            labels.put(COMPLETION_INDEX, String.valueOf(index));
            annotations.put(COMPLETION_INDEX, String.valueOf(index));
        }
        ObjectMeta meta = new ObjectMeta();
        meta.setName(prefix + suffix);
        meta.setGenerateName(prefix);
        meta.setNamespace(job.getMetadata().getNamespace());
        meta.setLabels(labels);
        meta.setAnnotations(annotations);
        meta.setFinalizers(List.of(TRACKING_FINALIZER));
        meta.setOwnerReferences(List.of(new OwnerReferenceBuilder().withApiVersion("batch/v1").withKind("Job")
                .withName(jobName).withUid(uid).withController(true).withBlockOwnerDeletion(true).build()));

        PodSpec spec = json.clone(template.getSpec());
        if (index != null) {
            spec.setHostname(jobName + "-" + index);
            for (Container c : spec.getContainers()) {
                List<EnvVar> env = new ArrayList<>(c.getEnv() == null ? List.of() : c.getEnv());
                env.add(new EnvVarBuilder().withName("JOB_COMPLETION_INDEX").withNewValueFrom().withNewFieldRef()
                        .withApiVersion("v1").withFieldPath("metadata.labels['" + COMPLETION_INDEX + "']")
                        .endFieldRef().endValueFrom().build());
                c.setEnv(env);
            }
        }
        defaults(spec, priority);

        Pod pod = new Pod();
        pod.setApiVersion("v1");
        pod.setKind("Pod");
        pod.setMetadata(meta);
        pod.setSpec(spec);
        pod.setStatus(new io.fabric8.kubernetes.api.model.PodStatusBuilder().withPhase("Pending")
                .withQosClass(qosClass(spec)).build());
        return pod;
    }

    /** What the API server defaults and admission plugins add to a pod spec. */
    static void defaults(PodSpec spec, int priority) {
        if (spec.getRestartPolicy() == null) {
            spec.setRestartPolicy("Always");
        }
        spec.setSchedulerName(spec.getSchedulerName() == null ? "default-scheduler" : spec.getSchedulerName());
        spec.setDnsPolicy(spec.getDnsPolicy() == null ? "ClusterFirst" : spec.getDnsPolicy());
        spec.setTerminationGracePeriodSeconds(
                spec.getTerminationGracePeriodSeconds() == null ? 30L : spec.getTerminationGracePeriodSeconds());
        spec.setServiceAccountName(spec.getServiceAccountName() == null ? "default" : spec.getServiceAccountName());
        spec.setServiceAccount(spec.getServiceAccountName());
        spec.setEnableServiceLinks(spec.getEnableServiceLinks() == null ? Boolean.TRUE : spec.getEnableServiceLinks());
        spec.setPreemptionPolicy(spec.getPreemptionPolicy() == null ? "PreemptLowerPriority" : spec.getPreemptionPolicy());
        spec.setPriority(priority);
        if (spec.getSecurityContext() == null) {
            spec.setSecurityContext(new io.fabric8.kubernetes.api.model.PodSecurityContext());
        }
        List<Toleration> tolerations = new ArrayList<>(spec.getTolerations() == null ? List.of() : spec.getTolerations());
        for (String key : List.of("node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable")) {
            if (tolerations.stream().noneMatch(t -> key.equals(t.getKey()))) {
                tolerations.add(new TolerationBuilder().withKey(key).withOperator("Exists").withEffect("NoExecute")
                        .withTolerationSeconds(300L).build());
            }
        }
        spec.setTolerations(tolerations);
        for (Container c : spec.getContainers()) {
            if (c.getImagePullPolicy() == null) {
                String image = c.getImage() == null ? "" : c.getImage();
                boolean latest = image.endsWith(":latest") || !image.substring(image.lastIndexOf('/') + 1).contains(":");
                c.setImagePullPolicy(latest ? "Always" : "IfNotPresent");
            }
            c.setTerminationMessagePath(c.getTerminationMessagePath() == null ? "/dev/termination-log"
                    : c.getTerminationMessagePath());
            c.setTerminationMessagePolicy(c.getTerminationMessagePolicy() == null ? "File"
                    : c.getTerminationMessagePolicy());
        }
    }

    /** Guaranteed when every container's CPU and memory requests equal its limits; Burstable with any request. */
    static String qosClass(PodSpec spec) {
        boolean guaranteed = true;
        boolean any = false;
        for (Container c : spec.getContainers()) {
            Map<String, Quantity> req = c.getResources() == null || c.getResources().getRequests() == null ? Map.of()
                    : c.getResources().getRequests();
            Map<String, Quantity> lim = c.getResources() == null || c.getResources().getLimits() == null ? Map.of()
                    : c.getResources().getLimits();
            any |= !req.isEmpty() || !lim.isEmpty();
            for (String r : List.of("cpu", "memory")) {
                Quantity l = lim.get(r);
                Quantity q = req.getOrDefault(r, l);
                if (l == null || q == null || Quantity.getAmountInBytes(l).compareTo(Quantity.getAmountInBytes(q)) != 0) {
                    guaranteed = false;
                }
            }
        }
        return guaranteed ? "Guaranteed" : any ? "Burstable" : "BestEffort";
    }
}
