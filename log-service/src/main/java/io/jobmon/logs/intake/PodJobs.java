package io.jobmon.logs.intake;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.jobmon.logs.config.LogsConfig;
import io.jobmon.logs.jobs.JobRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The job of a pod whose lines carry no job label, from the pods the jobs' snapshots name. Known pods are kept
 * (a bounded Caffeine cache); a pod of no known job is asked again after a short while
 * ({@code jobmon.logs.intake.unknown-pod-cache-ttl}), so that lines arriving after the snapshot are attributed at once
 * (lines stored before it are attributed by the snapshot itself).
 */
@ApplicationScoped
public class PodJobs {

    private static final int CAPACITY = 100_000;

    private final JobRepository jobs;
    private final Cache<String, String> known;
    private final Cache<String, Boolean> unknown;

    public PodJobs(JobRepository jobs, LogsConfig config) {
        this.jobs = jobs;
        this.known = Caffeine.newBuilder().maximumSize(CAPACITY).executor(Runnable::run).build();
        this.unknown = Caffeine.newBuilder().maximumSize(CAPACITY).executor(Runnable::run)
                .expireAfterWrite(config.intake().unknownPodCacheTtl()).build();
    }

    /** @param keys {@code namespace/pod} @return the jobs of those that have one */
    public Uni<Map<String, String>> resolve(Set<String> keys) {
        Map<String, String> out = new HashMap<>();
        List<String[]> ask = new ArrayList<>();
        for (String k : keys) {
            String job = known.getIfPresent(k);
            if (job != null) {
                out.put(k, job);
            } else if (unknown.getIfPresent(k) == null) {
                int slash = k.indexOf('/');
                ask.add(new String[] {k.substring(0, slash), k.substring(slash + 1)});
            }
        }
        if (ask.isEmpty()) {
            return Uni.createFrom().item(out);
        }
        return jobs.jobsOfPods(ask).map(found -> {
            for (String[] p : ask) {
                String k = p[0] + "/" + p[1];
                String job = found.get(k);
                if (job != null) {
                    known.put(k, job);
                    unknown.invalidate(k);
                    out.put(k, job);
                } else {
                    unknown.put(k, Boolean.TRUE);
                }
            }
            return out;
        });
    }
}
