package io.jobmon.logs.intake;

import io.jobmon.logs.config.LogsConfig;
import io.jobmon.logs.jobs.JobRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The job of a pod whose lines carry no job label, from the pods the jobs' snapshots name. Known pods are kept
 * (LRU); a pod of no known job is asked again after a short while, so that lines arriving after the snapshot are
 * attributed at once (lines stored before it are attributed by the snapshot itself).
 */
@ApplicationScoped
public class PodJobs {

    private static final int CAPACITY = 100_000;

    private final JobRepository jobs;
    private final long unknownTtlNanos;
    private final Map<String, String> known = new LinkedHashMap<>(1024, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
            return size() > CAPACITY;
        }
    };
    private final Map<String, Long> unknownUntil = new HashMap<>();

    public PodJobs(JobRepository jobs, LogsConfig config) {
        this.jobs = jobs;
        this.unknownTtlNanos = config.intake().unknownPodCacheTtl().toNanos();
    }

    /** @param keys {@code namespace/pod} @return the jobs of those that have one */
    public Uni<Map<String, String>> resolve(Set<String> keys) {
        Map<String, String> out = new HashMap<>();
        List<String[]> ask = new ArrayList<>();
        long now = System.nanoTime();
        synchronized (this) {
            for (String k : keys) {
                String job = known.get(k);
                if (job != null) {
                    out.put(k, job);
                    continue;
                }
                Long until = unknownUntil.get(k);
                if (until != null && until - now > 0) {
                    continue;
                }
                int slash = k.indexOf('/');
                ask.add(new String[] {k.substring(0, slash), k.substring(slash + 1)});
            }
            if (unknownUntil.size() > CAPACITY) {
                unknownUntil.values().removeIf(t -> t - now <= 0);
            }
        }
        if (ask.isEmpty()) {
            return Uni.createFrom().item(out);
        }
        return jobs.jobsOfPods(ask).map(found -> {
            synchronized (this) {
                for (String[] p : ask) {
                    String k = p[0] + "/" + p[1];
                    String job = found.get(k);
                    if (job != null) {
                        known.put(k, job);
                        unknownUntil.remove(k);
                        out.put(k, job);
                    } else {
                        unknownUntil.put(k, now + unknownTtlNanos);
                    }
                }
            }
            return out;
        });
    }
}
