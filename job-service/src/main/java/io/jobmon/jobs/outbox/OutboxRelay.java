package io.jobmon.jobs.outbox;

import io.jobmon.jobs.config.OutboxConfig;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.scheduler.Scheduled;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Moves snapshots from the outbox table to {@code jobmon.job.changes}, in rounds:
 * <ol>
 * <li>claim up to a batch of unclaimed rows ({@code FOR UPDATE SKIP LOCKED}: instances never claim the same row;
 * a claim expires after {@code claim-ttl} if its instance dies);</li>
 * <li>publish them and wait for the broker's acknowledgement;</li>
 * <li>delete each acknowledged row whose version is still the one published (a newer change written meanwhile
 * stays for the next round), and release the rest.</li>
 * </ol>
 * A row is deleted only after the broker acknowledged it, so a snapshot committed while Kafka is down is
 * published when it comes back; a rolled-back change never reached the table.
 */
@ApplicationScoped
public class OutboxRelay {

    private static final Logger LOG = Logger.getLogger(OutboxRelay.class);

    private final Pool pool;
    private final OutboxConfig config;
    private final String bootstrap;
    private final String instance = UUID.randomUUID().toString();
    private final AtomicBoolean paused = new AtomicBoolean();
    private volatile OutboxPublisher publisher;

    public OutboxRelay(Pool pool, OutboxConfig config,
            @ConfigProperty(name = "kafka.bootstrap.servers") String bootstrap) {
        this.pool = pool;
        this.config = config;
        this.bootstrap = bootstrap;
    }

    @Scheduled(every = "${jobmon.outbox.interval:0.5s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void tick() {
        if (!config.enabled() || paused.get()) {
            return;
        }
        try {
            while (runOnce(publisher()) == config.batchSize()) {
                // a full batch: more are waiting
            }
        } catch (RuntimeException e) {
            LOG.warnf("outbox round failed, retrying next round: %s", e.getMessage());
        }
    }

    /** One round with the given publisher; returns how many rows were published. */
    public int runOnce(OutboxPublisher with) {
        List<OutboxPublisher.Entry> claimed = claim();
        if (claimed.isEmpty()) {
            return 0;
        }
        List<OutboxPublisher.Entry> acked = with.publish(claimed);
        finish(claimed, acked);
        if (acked.size() < claimed.size()) {
            LOG.warnf("outbox: %d of %d snapshots not acknowledged; they stay for the next round",
                    claimed.size() - acked.size(), claimed.size());
        }
        return acked.size();
    }

    /** Stops the scheduled rounds (tests, or an operator draining an instance); rows wait in the table. */
    public void pause() {
        paused.set(true);
    }

    public void resume() {
        paused.set(false);
    }

    /** Unpublished snapshots. */
    public long pending() {
        return pool.query("SELECT count(*) AS n FROM outbox").execute().await().indefinitely()
                .iterator().next().getLong("n");
    }

    private List<OutboxPublisher.Entry> claim() {
        String sql = "UPDATE outbox o SET claimed_by = $1, claimed_until = now() + make_interval(secs => $2) "
                + "FROM (SELECT job_id FROM outbox WHERE claimed_until IS NULL OR claimed_until < now() "
                + "ORDER BY changed_at LIMIT $3 FOR UPDATE SKIP LOCKED) c WHERE o.job_id = c.job_id "
                + "RETURNING o.job_id, o.version, o.payload";
        return pool.withTransaction(tx -> tx.preparedQuery(sql)
                .execute(Tuple.of(instance, (double) config.claimTtl().toSeconds(), config.batchSize())))
                .map(rows -> {
                    List<OutboxPublisher.Entry> out = new ArrayList<>(rows.size());
                    rows.forEach(r -> out.add(new OutboxPublisher.Entry(r.getString("job_id"), r.getLong("version"),
                            r.getString("payload"))));
                    return out;
                }).await().indefinitely();
    }

    private void finish(List<OutboxPublisher.Entry> claimed, List<OutboxPublisher.Entry> acked) {
        String[] ids = acked.stream().map(OutboxPublisher.Entry::jobId).toArray(String[]::new);
        Long[] versions = acked.stream().map(OutboxPublisher.Entry::version).toArray(Long[]::new);
        String[] all = claimed.stream().map(OutboxPublisher.Entry::jobId).toArray(String[]::new);
        pool.withTransaction(tx -> tx.preparedQuery("DELETE FROM outbox o USING unnest($1::text[], $2::bigint[]) "
                + "AS a(id, v) WHERE o.job_id = a.id AND o.version = a.v").execute(Tuple.of(ids, versions))
                .flatMap(x -> tx.preparedQuery("UPDATE outbox SET claimed_by = NULL, claimed_until = NULL "
                        + "WHERE claimed_by = $1 AND job_id = ANY($2)").execute(Tuple.of(instance, all))))
                .await().indefinitely();
    }

    private OutboxPublisher publisher() {
        if (publisher == null) {
            publisher = new KafkaOutboxPublisher(bootstrap, config.sendTimeout());
        }
        return publisher;
    }

    void onStop(@Observes ShutdownEvent event) {
        if (publisher != null) {
            publisher.close();
        }
    }
}
