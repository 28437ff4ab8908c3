package io.jobmon.contracts.messaging;

import io.jobmon.contracts.events.InvalidRecordException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The one failure rule of every Kafka consumer of the suite.
 * <ul>
 * <li>A record that is invalid ({@link InvalidRecordException}: it does not parse, is not the event the channel
 * expects, lacks what it must carry) fails at once: the channel's {@code dead-letter-queue} failure strategy puts
 * it on {@code <topic>.dlq} with the reason, and the partition moves on.</li>
 * <li>Any other failure (the database is down, a deadlock, a broker timeout) says nothing about the record: the
 * work is retried with capped exponential backoff until it succeeds, holding the partition, so an outage never
 * parks a valid record. Work must therefore be idempotent (a transaction that commits its effects together with
 * what makes a redelivery a no-op).</li>
 * </ul>
 * A channel that is retrying shows on {@code /q/metrics} ({@code jobmon_consumer_retrying{channel}} = 1,
 * {@code jobmon_consumer_retries_total}) and in readiness as degraded — UP, with the channel, since when and why:
 * restarting the instance would not help, and the other consumers of the instance still work.
 */
@ApplicationScoped
public class ConsumerRule {

    private static final Logger LOG = Logger.getLogger(ConsumerRule.class);

    /** What a channel is retrying, while it is. */
    public record Retrying(Instant since, long attempts, String lastError) {
    }

    private final MeterRegistry registry;
    private final Duration initialBackoff;
    private final Duration maxBackoff;
    private final Map<String, Retrying> retrying = new ConcurrentHashMap<>();
    private final Map<String, Boolean> gauges = new ConcurrentHashMap<>();

    /**
     * @param initialBackoff {@code jobmon.consumers.backoff.initial}: the wait before the first retry
     * @param maxBackoff {@code jobmon.consumers.backoff.max}: the longest wait between two attempts
     */
    public ConsumerRule(MeterRegistry registry,
            @ConfigProperty(name = "jobmon.consumers.backoff.initial", defaultValue = "200ms") Duration initialBackoff,
            @ConfigProperty(name = "jobmon.consumers.backoff.max", defaultValue = "30s") Duration maxBackoff) {
        this.registry = registry;
        this.initialBackoff = initialBackoff;
        this.maxBackoff = maxBackoff;
    }

    /**
     * Runs one record's work under the rule and counts its outcome in
     * {@code jobmon_consumer_records_total{channel, topic, outcome=applied|dead_lettered}}.
     *
     * @param work called again for every attempt (build the Uni inside it)
     * @return a Uni that fails only with {@link InvalidRecordException}, for the dead-letter queue
     */
    public Uni<Void> handle(String channel, String topic, Supplier<Uni<Void>> work) {
        return apply(channel, work)
                .invoke(() -> count(channel, topic, Outcome.APPLIED, 1))
                .onFailure(InvalidRecordException.class).invoke(e -> {
                    LOG.infof("%s: invalid record to %s.dlq: %s", channel, topic, e.getMessage());
                    count(channel, topic, Outcome.DEAD_LETTERED, 1);
                });
    }

    /**
     * Runs {@code work}, retrying every failure but {@link InvalidRecordException} with capped backoff until it
     * succeeds. For batch consumers, which count their records themselves with {@link #count}.
     */
    public <T> Uni<T> apply(String channel, Supplier<Uni<T>> work) {
        return Uni.createFrom().deferred(() -> work.get())
                .onFailure(ConsumerRule::retryable).invoke(e -> failed(channel, e))
                .onFailure(ConsumerRule::retryable).retry().withBackOff(initialBackoff, maxBackoff).indefinitely()
                .onTermination().invoke(() -> recovered(channel));
    }

    /** What a record did. */
    public enum Outcome {
        APPLIED("applied"), DEAD_LETTERED("dead_lettered");

        final String tag;

        Outcome(String tag) {
            this.tag = tag;
        }
    }

    public void count(String channel, String topic, Outcome outcome, long records) {
        if (records > 0) {
            Counter.builder("jobmon.consumer.records").description("records consumed, by what they did")
                    .tags("channel", channel, "topic", topic, "outcome", outcome.tag).register(registry)
                    .increment(records);
        }
    }

    /** The channels retrying right now (readiness shows them). */
    public Map<String, Retrying> retrying() {
        return Map.copyOf(retrying);
    }

    static boolean retryable(Throwable e) {
        return !(e instanceof InvalidRecordException);
    }

    private void failed(String channel, Throwable e) {
        ensureGauge(channel);
        Counter.builder("jobmon.consumer.retries").description("attempts of a record's work that failed and are retried")
                .tag("channel", channel).register(registry).increment();
        String reason = e.getClass().getSimpleName() + ": " + e.getMessage();
        Retrying now = retrying.merge(channel, new Retrying(Instant.now(), 1, reason),
                (old, fresh) -> new Retrying(old.since(), old.attempts() + 1, reason));
        if (now.attempts() == 1 || now.attempts() % 10 == 0) {
            LOG.warnf("%s: attempt %d failed, retrying (the record is held, not dead-lettered): %s", channel,
                    now.attempts(), reason);
        }
    }

    private void recovered(String channel) {
        Retrying was = retrying.remove(channel);
        if (was != null) {
            LOG.infof("%s: done after %d failed attempts since %s", channel, was.attempts(), was.since());
        }
    }

    private void ensureGauge(String channel) {
        gauges.computeIfAbsent(channel, c -> {
            Gauge.builder("jobmon.consumer.retrying", retrying, m -> m.containsKey(c) ? 1 : 0)
                    .description("1 while the channel retries a record's work").tag("channel", c)
                    .strongReference(true).register(registry);
            return Boolean.TRUE;
        });
    }
}
