package io.jobmon.diagnosis.analysis;

import io.jobmon.diagnosis.engine.EngineJson;
import com.fasterxml.jackson.databind.JsonNode;
import io.jobmon.contracts.problem.ApiException;
import io.jobmon.diagnosis.config.DiagnosisConfig;
import io.jobmon.diagnosis.engine.BilingualDiagnosis;
import io.jobmon.diagnosis.engine.Diagnosis;
import io.jobmon.diagnosis.engine.DiagnosisEngine;
import io.jobmon.diagnosis.engine.EvidenceBundle;
import io.quarkus.runtime.ShutdownEvent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Runs the engine off the event loop on a small bounded pool, with a deadline: a request never waits longer
 * than {@code jobmon.diagnosis.analyze.timeout}, and a full pool answers 503 at once instead of queueing.
 */
@ApplicationScoped
public class AnalysisRunner {

    private final DiagnosisEngine engine = new DiagnosisEngine();
    private final ThreadPoolExecutor pool;
    private final Duration timeout;

    @Inject
    public AnalysisRunner(DiagnosisConfig config) {
        this(config.analyze().threads(), config.analyze().queue(), config.analyze().timeout());
    }

    AnalysisRunner(int threads, int queue, Duration timeout) {
        this.timeout = timeout;
        AtomicInteger n = new AtomicInteger();
        this.pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(Math.max(1, queue)),
                r -> {
                    Thread t = new Thread(r, "diagnosis-analysis-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        this.pool.allowCoreThreadTimeOut(true);
    }

    /** Parses (validating) and analyses a bundle given as JSON. */
    public Uni<Diagnosis> analyze(JsonNode bundle, Locale locale) {
        return run(() -> engine.analyze(EvidenceBundle.fromJson(bundle), locale));
    }

    /** Parses raw JSON bytes, then analyses; malformed JSON fails with Jackson's exception (a 400). */
    public Uni<Diagnosis> analyze(byte[] json, Locale locale) {
        return run(() -> engine.analyze(EvidenceBundle.fromJson(EngineJson.readBundle(json)), locale));
    }

    /**
     * One analysis in both languages, blocking the calling worker thread: for tasks (automatic ones have no
     * reader whose language is known; the result is shown in each reader's language).
     */
    public BilingualDiagnosis analyzeBilingualBlocking(JsonNode bundle) {
        return run(() -> engine.analyzeBilingual(EvidenceBundle.fromJson(bundle)))
                .await().atMost(timeout.plusSeconds(1));
    }

    /** The same, blocking the calling worker thread: for tasks, which already run off the event loop. */
    public Diagnosis analyzeBlocking(JsonNode bundle, Locale locale) {
        return analyze(bundle, locale).await().atMost(timeout.plusSeconds(1));
    }

    private <T> Uni<T> run(Supplier<T> work) {
        CompletableFuture<T> future;
        try {
            future = CompletableFuture.supplyAsync(work, pool);
        } catch (RejectedExecutionException e) {
            return Uni.createFrom().failure(busy("the analysis queue is full; retry shortly"));
        }
        return Uni.createFrom().completionStage(future)
                .onFailure(CompletionException.class).transform(Throwable::getCause)
                .ifNoItem().after(timeout).failWith(() -> {
                    future.cancel(true);
                    return busy("the analysis did not finish within " + timeout.toSeconds() + " s");
                });
    }

    private static ApiException busy(String detail) {
        return new ApiException(503, "Service Unavailable", "analysis-unavailable", detail, null);
    }

    void stop(@Observes ShutdownEvent event) {
        pool.shutdownNow();
    }
}
