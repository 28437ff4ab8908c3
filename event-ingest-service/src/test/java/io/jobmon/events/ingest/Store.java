package io.jobmon.events.ingest;

import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.JobStatusChanged;
import io.jobmon.contracts.events.Topics;
import io.jobmon.testsupport.KafkaTestClient;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** Test helpers: what the store holds and what was published, for one job. */
public final class Store {

    private Store() {
    }

    public static List<Row> rows(Pool pool, String sql, Object... args) {
        List<Row> out = new ArrayList<>();
        pool.preparedQuery(sql).execute(Tuple.from(List.of(args))).await().atMost(Duration.ofSeconds(10)).forEach(out::add);
        return out;
    }

    public static long count(Pool pool, String sql, Object... args) {
        return rows(pool, sql, args).get(0).getLong(0);
    }

    /** The transitions published for the job (not its pods-only records), in order, once {@code count} are there. */
    public static List<JobStatusChanged> statuses(String jobId, int count) {
        return published(jobId, count, false);
    }

    /** The pods-only records published for the job, in order, once {@code count} of them are there. */
    public static List<JobStatusChanged> podUpdates(String jobId, int count) {
        return published(jobId, count, true);
    }

    private static List<JobStatusChanged> published(String jobId, int count, boolean podsOnly) {
        List<JobStatusChanged> out = new ArrayList<>();
        for (ConsumerRecord<String, String> r : KafkaTestClient.await(Topics.JOB_STATUS, x -> jobId.equals(x.key())
                && decode(x.value()).podsOnly() == podsOnly, count, Duration.ofSeconds(30))) {
            out.add(decode(r.value()));
        }
        return out;
    }

    private static JobStatusChanged decode(String value) {
        return CloudEvents.decode(value, JobStatusChanged.class).data();
    }

    public static void send(String key, String value) {
        KafkaTestClient.send(Topics.K8S_RAW, key, value);
    }
}
