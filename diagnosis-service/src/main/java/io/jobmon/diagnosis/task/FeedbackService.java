package io.jobmon.diagnosis.task;

import io.jobmon.contracts.access.Caller;
import io.jobmon.contracts.i18n.Text;
import io.jobmon.contracts.problem.ApiException;
import io.jobmon.diagnosis.repository.FeedbackRepository;
import io.jobmon.diagnosis.repository.FeedbackRepository.Feedback;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;

/**
 * Verdicts on finished diagnoses, kept with the diagnosis' category so that the platform team can find which
 * patterns of the catalogue mislead. Whoever may see the diagnosis may judge it; one verdict per user.
 */
@ApplicationScoped
public class FeedbackService {

    private static final int MAX_COMMENT = 4000;

    private final Pool pool;
    private final TaskService tasks;
    private final FeedbackRepository repository;

    public FeedbackService(Pool pool, TaskService tasks, FeedbackRepository repository) {
        this.pool = pool;
        this.tasks = tasks;
        this.repository = repository;
    }

    /** The caller's verdict on a diagnosis they may see; 404 when they gave none. */
    public Uni<Feedback> mine(Caller caller, String diagnosisId) {
        return tasks.get(caller, diagnosisId).chain(task -> of(task, caller)).map(found -> found.orElseThrow(
                () -> ApiException.notFound(Text.of("diagnosis.no-feedback", diagnosisId))));
    }

    /** The caller's verdict on a diagnosis already found visible to them, if any. */
    public Uni<Optional<Feedback>> of(DiagnosisTask task, Caller caller) {
        return repository.find(pool, task.id(), caller.user());
    }

    public Uni<Feedback> give(Caller caller, String diagnosisId, String verdict, String comment) {
        if (verdict == null) {
            throw ApiException.invalid("verdict", "field.one-of", "ACCURATE, POOR");
        }
        if (comment != null && comment.length() > MAX_COMMENT) {
            throw ApiException.invalid("comment", "field.max-length", MAX_COMMENT);
        }
        return tasks.get(caller, diagnosisId).chain(task -> {
            if (task.status() != DiagnosisTask.Status.DONE) {
                throw ApiException.conflict(Text.of("diagnosis.feedback-not-done", diagnosisId,
                        Text.of("diagnosis.status." + task.status())));
            }
            return repository.upsert(pool, diagnosisId, caller.user(), verdict, comment, task.category());
        });
    }
}
