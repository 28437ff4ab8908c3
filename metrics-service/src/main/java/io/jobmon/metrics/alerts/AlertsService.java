package io.jobmon.metrics.alerts;

import io.jobmon.contracts.access.AccessRule;
import io.jobmon.contracts.access.Caller;
import io.jobmon.contracts.access.JobAccess;
import io.jobmon.contracts.api.Cursors;
import io.jobmon.contracts.api.Page;
import io.jobmon.contracts.readmodel.JobAccessStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The alerts a caller may see (docs/adr/0034-alerts-from-alertmanager.md): those Alertmanager holds now (firing,
 * silenced, inhibited) and the resolved ones of the webhook's history, newest first, one page at a time.
 * <ul>
 * <li>an alert with a {@code job_id} label is the job's: seen by whoever may view the job (contracts' access rule
 * on the job_access read model), and never when its {@code tenant} label names another tenant than the job's;</li>
 * <li>an alert without a job but with a {@code tenant} label: that tenant's admins;</li>
 * <li>an alert with neither (node, GPU and platform alerts): every admin, as the node charts are (ADR 0035).</li>
 * </ul>
 */
@ApplicationScoped
public class AlertsService {

    /** Which alerts a list shows. */
    public enum Which {
        FIRING, RESOLVED, ALL
    }

    /** A list's parameters: which alerts, resolved ones that ended at or after {@code since}, the page. */
    public record Query(Which which, Instant since, int limit, AlertHistoryRepository.After after) {
    }

    static final Comparator<Alert> NEWEST_FIRST = Comparator.comparing(Alert::since).thenComparing(Alert::id).reversed();

    private final AlertmanagerClient alertmanager;
    private final AlertHistoryRepository history;
    private final JobAccessStore access;

    public AlertsService(AlertmanagerClient alertmanager, AlertHistoryRepository history, JobAccessStore access) {
        this.alertmanager = alertmanager;
        this.history = history;
        this.access = access;
    }

    /** Stores the alerts of a webhook notification. */
    public Uni<Void> received(List<Alert> alerts) {
        return history.record(alerts, Instant.now());
    }

    /** The cursor of the page after {@code last}. */
    public static String cursor(Alert last) {
        return Cursors.encode(last.since().toString(), last.id());
    }

    /** The position a cursor names; a 400 naming {@code cursor} when it is not one of this list. */
    public static AlertHistoryRepository.After after(String cursor) {
        List<String> parts = Cursors.decode(cursor, 2);
        if (parts == null) {
            return null;
        }
        try {
            return new AlertHistoryRepository.After(Instant.parse(parts.get(0)), parts.get(1));
        } catch (RuntimeException e) {
            throw Cursors.invalid();
        }
    }

    /** A page of the alerts the caller may see: of one job ({@code jobId}, the caller may view it), else all. */
    public Uni<Page<Alert>> list(Caller caller, String jobId, Query q) {
        Map<String, Optional<JobAccess>> jobs = new ConcurrentHashMap<>();
        Uni<List<Alert>> firing = q.which() == Which.RESOLVED ? Uni.createFrom().item(List.of())
                : alertmanager.alerts(filters(caller, jobId)).chain(all -> visible(caller, all, jobs));
        return firing.chain(active -> {
            List<Alert> now = active.stream().filter(a -> before(a, q.after())).sorted(NEWEST_FIRST).toList();
            if (q.which() == Which.FIRING) {
                return Uni.createFrom().item(page(now, q.limit()));
            }
            Set<String> held = new HashSet<>();
            active.forEach(a -> held.add(a.id() + "@" + a.since()));
            return resolved(caller, jobId, q, q.after(), jobs, held, new ArrayList<>()).map(past -> {
                List<Alert> merged = new ArrayList<>(now);
                merged.addAll(past);
                merged.sort(NEWEST_FIRST);
                return page(merged, q.limit());
            });
        });
    }

    /** Resolved alerts the caller may see after {@code from}, read a batch at a time until the page is full. */
    private Uni<List<Alert>> resolved(Caller caller, String jobId, Query q, AlertHistoryRepository.After from,
            Map<String, Optional<JobAccess>> jobs, Set<String> held, List<Alert> out) {
        int batch = Math.max(q.limit() + 1, 200);
        String tenant = caller.isService() ? null : caller.tenant();
        return history.resolved(tenant, jobId, q.since(), from, batch).chain(rows -> visible(caller, rows, jobs)
                .chain(seen -> {
                    seen.stream().filter(a -> !held.contains(a.id() + "@" + a.since())).forEach(out::add);
                    if (rows.size() < batch || out.size() > q.limit()) {
                        return Uni.createFrom().item(out);
                    }
                    Alert last = rows.get(rows.size() - 1);
                    return resolved(caller, jobId, q, new AlertHistoryRepository.After(last.since(), last.id()), jobs,
                            held, out);
                }));
    }

    /** What Alertmanager is asked for: one job's, every job alert (a user), everything (an admin). */
    static List<String> filters(Caller caller, String jobId) {
        if (jobId != null) {
            return List.of(AlertmanagerClient.equal("job_id", jobId));
        }
        return caller.isAdmin() ? List.of() : List.of("job_id=~\".+\"");
    }

    /** The alerts the caller may see, the jobs' access facts read once per request. */
    private Uni<List<Alert>> visible(Caller caller, List<Alert> alerts, Map<String, Optional<JobAccess>> jobs) {
        Set<String> missing = new LinkedHashSet<>();
        alerts.stream().map(Alert::jobId).filter(j -> j != null && !jobs.containsKey(j)).forEach(missing::add);
        if (missing.isEmpty()) {
            return Uni.createFrom().item(alerts.stream().filter(a -> visible(caller, a, jobs)).toList());
        }
        List<Uni<Void>> reads = missing.stream()
                .map(j -> access.find(j).invoke(found -> jobs.put(j, found)).replaceWithVoid()).toList();
        return Uni.join().all(reads).andFailFast()
                .map(x -> alerts.stream().filter(a -> visible(caller, a, jobs)).toList());
    }

    static boolean visible(Caller caller, Alert a, Map<String, Optional<JobAccess>> jobs) {
        if (a.jobId() != null) {
            JobAccess job = jobs.getOrDefault(a.jobId(), Optional.empty()).orElse(null);
            return job != null && AccessRule.canView(caller, job) && (a.tenant() == null || a.tenant().equals(job.tenant()));
        }
        if (!caller.isAdmin()) {
            return false;
        }
        return a.tenant() == null || a.tenant().equals(caller.tenant());
    }

    private static boolean before(Alert a, AlertHistoryRepository.After after) {
        if (after == null) {
            return true;
        }
        int c = a.since().compareTo(after.since());
        return c < 0 || c == 0 && a.id().compareTo(after.id()) < 0;
    }

    private static Page<Alert> page(List<Alert> sorted, int limit) {
        if (sorted.size() <= limit) {
            return Page.last(sorted);
        }
        List<Alert> items = sorted.subList(0, limit);
        return new Page<>(List.copyOf(items), cursor(items.get(limit - 1)));
    }
}
