package io.jobmon.logs.attribution;

import static io.jobmon.logs.Sql.ts;

import io.jobmon.contracts.events.GpuHolding;
import io.jobmon.contracts.messaging.ConsumerRule;
import io.jobmon.contracts.messaging.Envelope;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Keeps {@code gpu_holding} from {@code jobmon.gpu.holdings}: which pod held which GPU (index, UUID, PCI bus id) of a
 * node when. A holding is published again when it ends or is seen longer: upserted by (node, GPU, namespace, pod,
 * from), its end only ever moving on. An invalid record goes to {@code jobmon.gpu.holdings.dlq} (contracts'
 * {@link ConsumerRule}).
 */
@ApplicationScoped
public class GpuHoldingsConsumer {

    static final String CHANNEL = "gpu-holdings";
    private static final Envelope<GpuHolding> ENVELOPE = Envelope.of(GpuHolding.TYPE, GpuHolding.class);
    private static final String UPSERT = "INSERT INTO gpu_holding AS h (node, gpu_key, namespace, pod, from_time, to_time, gpu,"
            + " uuid, bus_id, cluster) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)"
            + " ON CONFLICT (node, gpu_key, namespace, pod, from_time) DO UPDATE SET"
            + " to_time = CASE WHEN EXCLUDED.to_time IS NULL THEN h.to_time WHEN h.to_time IS NULL THEN EXCLUDED.to_time"
            + " ELSE greatest(h.to_time, EXCLUDED.to_time) END,"
            + " gpu = coalesce(EXCLUDED.gpu, h.gpu), uuid = coalesce(EXCLUDED.uuid, h.uuid),"
            + " bus_id = coalesce(EXCLUDED.bus_id, h.bus_id)";

    private final Pool pool;
    private final ConsumerRule rule;
    private final String topic;

    public GpuHoldingsConsumer(Pool pool, ConsumerRule rule,
            @ConfigProperty(name = "mp.messaging.incoming.gpu-holdings.topic") String topic) {
        this.pool = pool;
        this.rule = rule;
        this.topic = topic;
    }

    @Incoming(CHANNEL)
    public Uni<Void> consume(ConsumerRecord<String, String> record) {
        return rule.handle(CHANNEL, topic, () -> {
            GpuHolding h = ENVELOPE.data(record.key(), record.value());
            return store(h);
        });
    }

    Uni<Void> store(GpuHolding h) {
        String uuid = h.uuid() == null || h.uuid().isBlank() ? null : h.uuid();
        String bus = PciBusId.normal(h.pciBusId());
        String key = uuid != null ? uuid : h.gpu() != null ? h.gpu() : bus;
        Tuple args = Tuple.tuple().addValue(h.node()).addValue(key).addValue(h.namespace() == null ? "" : h.namespace())
                .addValue(h.pod()).addValue(ts(h.from())).addValue(ts(h.to())).addValue(h.gpu()).addValue(uuid)
                .addValue(bus).addValue(h.cluster());
        return pool.preparedQuery(UPSERT).execute(args).replaceWithVoid();
    }
}
