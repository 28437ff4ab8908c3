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

    /** The transitions published for the job, in order, once {@code count} of them are there. */
    public static List<JobStatusChanged> statuses(String jobId, int count) {
        List<JobStatusChanged> out = new ArrayList<>();
        for (ConsumerRecord<String, String> r : KafkaTestClient.await(Topics.JOB_STATUS, x -> jobId.equals(x.key()),
                count, Duration.ofSeconds(30))) {
            out.add(CloudEvents.decode(r.value(), JobStatusChanged.class).data());
        }
        return out;
    }

    public static void send(String key, String value) {
        KafkaTestClient.send(Topics.K8S_RAW, key, value);
    }
}
