package io.jobmon.diagnosis.task;

import io.jobmon.contracts.access.Caller;
import io.jobmon.contracts.access.Permission;
import io.jobmon.contracts.events.JobSnapshot;
import io.jobmon.contracts.i18n.Text;
import io.jobmon.contracts.problem.ApiException;
import io.jobmon.contracts.readmodel.JobGuard;
import io.jobmon.diagnosis.config.DiagnosisConfig;
import io.jobmon.diagnosis.repository.DiagnosisQueries;
import io.jobmon.diagnosis.repository.DiagnosisRepository;
import io.jobmon.diagnosis.repository.SnapshotRepository;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Diagnosis tasks as users see them. Access follows the job's rule through the local read model: whoever may VIEW
 * the job may read its diagnoses and ask a new one (a diagnosis reads nothing the caller could not read, and the
 * evidence is fetched with the caller's own token); anybody else gets 404.
 */
@ApplicationScoped
public class TaskService {

    private static final Pattern METRIC = Pattern.compile("[A-Za-z0-9_:.]{1,64}");
    private static final int MAX_METRICS = 20;
    private static final int MAX_HINT = 4000;

    private final Pool pool;
    private final JobGuard guard;
    private final DiagnosisRepository repository;
    private final DiagnosisQueries queries;
    private final SnapshotRepository snapshots;
    private final TaskRunner runner;
    private final DiagnosisConfig config;

    public TaskService(Pool pool, JobGuard guard, DiagnosisRepository repository, DiagnosisQueries queries,
            SnapshotRepository snapshots, TaskRunner runner, DiagnosisConfig config) {
        this.pool = pool;
        this.snapshots = snapshots;
        this.guard = guard;
        this.repository = repository;
        this.queries = queries;
        this.runner = runner;
        this.config = config;
    }

    /**
     * Stores a PENDING task and starts it on this instance with the caller's token. Without a window, the last 30
     * minutes of the job's run: up to now while it runs, up to a minute after its end once it ended.
     */
    public Uni<DiagnosisTask> ask(Caller caller, String authorization, String jobId, Instant from, Instant to,
            List<String> metrics, String hint, Locale locale) {
        Instant now = Instant.now();
        Window.of(from, to, config.tasks().maxWindow(), now); // a bad window is a 400 before anything else
        List<String> names = validMetrics(metrics);
        if (hint != null && hint.length() > MAX_HINT) {
            throw ApiException.invalid("hint", "field.max-length", MAX_HINT);
        }
        String id = NewTask.newId();
        return guard.require(caller, jobId, Permission.VIEW)
                .chain(access -> snapshots.find(pool, jobId))
                .map(job -> Window.ofRun(from, to, config.tasks().maxWindow(), now,
                        job.map(JobSnapshot::finishedAt).orElse(null)))
                .map(window -> new NewTask(id, jobId, DiagnosisTask.Trigger.USER, null, caller.user(), window.from(),
                        window.to(), names, hint, locale.getLanguage(), null, config.tasks().handoff()))
                .chain(task -> repository.insert(pool, task).replaceWith(task))
                .chain(task -> queries.find(pool, task.id()))
                .map(stored -> {
                    runner.runSoon(id, authorization);
                    return stored.orElseThrow();
                });
    }

    /** One diagnosis, if the caller may see its job. */
    public Uni<DiagnosisTask> get(Caller caller, String id) {
        return queries.find(pool, id).chain(found -> {
            DiagnosisTask task = found.orElseThrow(() -> notFound(id));
            return guard.require(caller, task.jobId(), Permission.VIEW)
                    .onFailure(ApiException.class).transform(e -> notFound(id))
                    .replaceWith(task);
        });
    }

    /** The metric snapshot of a diagnosis already found visible to the caller ({@link #get}). */
    public Uni<java.util.Optional<com.fasterxml.jackson.databind.JsonNode>> metricSnapshot(String id) {
        return queries.metricSnapshot(pool, id);
    }

    /** A page of the job's diagnoses, newest first, automatic ones included. */
    public Uni<List<DiagnosisTask>> history(Caller caller, String jobId, Cursor after, int limit) {
        return guard.require(caller, jobId, Permission.VIEW)
                .chain(access -> queries.page(pool, jobId, after == null ? null : after.createdAt(),
                        after == null ? null : after.id(), limit));
    }

    private static ApiException notFound(String id) {
        return ApiException.notFound(Text.of("diagnosis.not-found", id));
    }

    private static List<String> validMetrics(List<String> metrics) {
        if (metrics == null) {
            return List.of();
        }
        if (metrics.size() > MAX_METRICS) {
            throw ApiException.invalid("metrics", "field.max-items", MAX_METRICS);
        }
        for (int i = 0; i < metrics.size(); i++) {
            if (metrics.get(i) == null || !METRIC.matcher(metrics.get(i)).matches()) {
                throw ApiException.invalid("metrics[" + i + "]", "diagnosis.metric-name");
            }
        }
        return List.copyOf(metrics);
    }
}
