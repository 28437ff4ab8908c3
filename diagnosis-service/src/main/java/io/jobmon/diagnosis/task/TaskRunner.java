package io.jobmon.diagnosis.task;

import io.jobmon.contracts.http.RequestIds;
import io.jobmon.diagnosis.config.DiagnosisConfig;
import io.jobmon.diagnosis.evidence.ServiceToken;
import io.jobmon.diagnosis.repository.DiagnosisRepository;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.logging.Logger;
import org.jboss.logging.MDC;

/**
 * Runs diagnosis tasks on a few worker threads of this instance. A user's task is started at once by the instance
 * that took it, with the user's token (tokens are never stored). Every {@code poll-interval} each instance also
 * claims due tasks from the table ({@code FOR UPDATE SKIP LOCKED}): automatic ones, and user tasks whose instance
 * died (those then run with the service account's token).
 */
@ApplicationScoped
public class TaskRunner {

    private static final Logger LOG = Logger.getLogger(TaskRunner.class);

    private final String instance = "diagnosis-" + UUID.randomUUID();
    private final Pool pool;
    private final DiagnosisRepository repository;
    private final TaskExecution execution;
    private final ServiceToken serviceToken;
    private final DiagnosisConfig config;
    private final ThreadPoolExecutor workers;
    private final AtomicInteger busy = new AtomicInteger();

    public TaskRunner(Pool pool, DiagnosisRepository repository, TaskExecution execution, ServiceToken serviceToken,
            DiagnosisConfig config) {
        this.pool = pool;
        this.repository = repository;
        this.execution = execution;
        this.serviceToken = serviceToken;
        this.config = config;
        int n = Math.max(1, config.tasks().concurrency());
        AtomicInteger count = new AtomicInteger();
        this.workers = new ThreadPoolExecutor(n, n, 30, TimeUnit.SECONDS, new ArrayBlockingQueue<>(n * 4), r -> {
            Thread t = new Thread(r, "diagnosis-task-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts the task just stored by this instance with the caller's token; if busy, the poll takes it later. */
    public void runSoon(String id, String authorization) {
        // The task's log lines carry the X-Request-Id of the request that asked for it.
        String requestId = RequestIds.current();
        try {
            workers.execute(() -> guarded(requestId != null ? requestId : "diagnosis:" + id, () -> repository.claim(pool, id, instance, config.tasks().claimTtl())
                    .await().atMost(Duration.ofSeconds(10))
                    .ifPresent(task -> execution.run(task, instance, Optional.ofNullable(authorization)))));
        } catch (RejectedExecutionException e) {
            LOG.infof("diagnosis %s waits for the next poll: all workers busy", id);
        }
    }

    /**
     * Non-blocking: claims what the free workers can take (on the event loop) and hands it to them; the tasks
     * themselves block (evidence calls, analysis) on the bounded workers (ADR 0013).
     */
    @Scheduled(every = "${jobmon.diagnosis.tasks.poll-interval:2s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> poll() {
        int free = config.tasks().concurrency() - busy.get() - workers.getQueue().size();
        if (free <= 0) {
            return Uni.createFrom().voidItem();
        }
        return repository.claimDue(pool, instance, config.tasks().claimTtl(), free)
                .ifNoItem().after(Duration.ofSeconds(10)).fail()
                .invoke(this::start)
                .onFailure().invoke(e -> LOG.warnf("cannot look for due diagnoses: %s", e.getMessage()))
                .onFailure().recoverWithNull().replaceWithVoid();
    }

    private void start(List<DiagnosisTask> due) {
        for (DiagnosisTask task : due) {
            try {
                workers.execute(() -> guarded("diagnosis:" + task.id(),
                        () -> execution.run(task, instance, serviceToken.authorization())));
            } catch (RejectedExecutionException e) {
                LOG.infof("diagnosis %s claimed but workers busy; taken over when its claim expires", task.id());
            }
        }
    }

    private void guarded(String requestId, Runnable work) {
        busy.incrementAndGet();
        MDC.put(RequestIds.MDC_KEY, requestId);
        try {
            work.run();
        } catch (RuntimeException e) {
            if (workers.isShutdown()) {
                LOG.debugf("diagnosis task interrupted by shutdown; another instance takes it over: %s", e);
            } else {
                LOG.errorf(e, "diagnosis task failed unexpectedly");
            }
        } finally {
            MDC.remove(RequestIds.MDC_KEY);
            busy.decrementAndGet();
        }
    }

    void stop(@Observes ShutdownEvent event) {
        workers.shutdownNow();
    }
}
