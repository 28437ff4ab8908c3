package io.jobmon.sim.control;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The API server's admission of a new pod, as far as the sim plays it: the Priority plugin (the pod's
 * PriorityClass must exist) and the ResourceQuota plugin (the pod must fit every quota of its namespace). A denial
 * is worded as the API server words it; the job controller wraps it into its {@code FailedCreate} event.
 */
public final class Admission {

    /** The quota resources a pod uses, in canonical units (millicores, bytes, counts). */
    public record Usage(long cpuMillis, long memoryBytes, long limitCpuMillis, long limitMemoryBytes, long gpus) {

        Map<String, Long> byResource() {
            Map<String, Long> m = new TreeMap<>();
            m.put("pods", 1L);
            m.put("cpu", cpuMillis);
            m.put("requests.cpu", cpuMillis);
            m.put("memory", memoryBytes);
            m.put("requests.memory", memoryBytes);
            m.put("limits.cpu", limitCpuMillis);
            m.put("limits.memory", limitMemoryBytes);
            m.put("requests.nvidia.com/gpu", gpus);
            return m;
        }
    }

    /** A ResourceQuota: hard limits and what the namespace already uses, by resource name, canonical units. */
    public record Quota(String name, Map<String, Long> hard, Map<String, Long> used) {
    }

    private Admission() {
    }

    /** The API server's error for the pod, or empty when it is admitted. */
    public static Optional<String> deny(String podName, String priorityClass, Map<String, Integer> priorityClasses,
            Usage usage, List<Quota> quotas) {
        if (priorityClass != null && !priorityClass.isEmpty() && !priorityClasses.containsKey(priorityClass)) {
            return Optional.of(forbidden(podName, "no PriorityClass with name " + priorityClass + " was found"));
        }
        Map<String, Long> asks = usage.byResource();
        for (Quota q : quotas) {
            Map<String, Long> requested = new TreeMap<>();
            Map<String, Long> used = new TreeMap<>();
            Map<String, Long> limited = new TreeMap<>();
            q.hard().forEach((resource, hard) -> {
                long ask = asks.getOrDefault(resource, 0L);
                long inUse = q.used().getOrDefault(resource, 0L);
                if (ask > 0 && inUse + ask > hard) {
                    requested.put(resource, ask);
                    used.put(resource, inUse);
                    limited.put(resource, hard);
                }
            });
            if (!requested.isEmpty()) {
                return Optional.of(forbidden(podName, "exceeded quota: " + q.name() + ", requested: " + pretty(requested)
                        + ", used: " + pretty(used) + ", limited: " + pretty(limited)));
            }
        }
        return Optional.empty();
    }

    /** {@code pods "name" is forbidden: reason} (admission.NewForbidden). */
    static String forbidden(String podName, String reason) {
        return "pods \"" + podName + "\" is forbidden: " + reason;
    }

    /** The quota plugin's prettyPrint: sorted {@code resource=quantity} pairs joined by commas. */
    static String pretty(Map<String, Long> values) {
        StringBuilder b = new StringBuilder();
        values.forEach((k, v) -> b.append(b.length() == 0 ? "" : ",").append(k).append('=').append(quantity(k, v)));
        return b.toString();
    }

    /** A canonical quantity: cores or millicores for CPU, the largest exact binary unit for memory. */
    static String quantity(String resource, long v) {
        if (resource.endsWith("cpu")) {
            return v % 1000 == 0 ? String.valueOf(v / 1000) : v + "m";
        }
        if (resource.endsWith("memory")) {
            String[] units = {"Ei", "Pi", "Ti", "Gi", "Mi", "Ki"};
            for (int i = 0; i < units.length; i++) {
                long unit = 1L << (10 * (6 - i));
                if (v != 0 && v % unit == 0) {
                    return (v / unit) + units[i];
                }
            }
        }
        return String.valueOf(v);
    }
}
