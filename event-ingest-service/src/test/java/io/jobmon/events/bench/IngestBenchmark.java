package io.jobmon.events.bench;

import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.JobStatusChanged;
import io.jobmon.testsupport.BenchKafka;
import io.jobmon.testsupport.EmbeddedKafka;
import io.jobmon.testsupport.EmbeddedPostgresDb;
import io.jobmon.testsupport.ServiceProcess;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Ingest throughput and status latency of event-ingest-service (a program, not a test). See the README for the
 * command. Arguments: {@code records} (default 1,000,000; 100 per job), {@code partitions} (4), {@code rate}
 * for the latency phase (5000/s) and its {@code seconds} (60), {@code warmup} records (0).
 *
 * <ol>
 * <li>Produces the records of {@code warmup/100} jobs, then of {@code records/100} jobs, to a fresh topic.</li>
 * <li>A plain Kafka consumer reads the measured records: the reference rate.</li>
 * <li>The parsing floor: a plain consumer decodes every record with Jackson into the views the service keeps
 * ({@code PodParser}, {@code EventParser}) and stores nothing ({@link Bench#parsingFloor}).</li>
 * <li>The service (a separate process, fresh consumer group) ingests the warm-up records (its JIT compiles what
 * a running service has long compiled), then the measured ones: records stored per second and status
 * transitions published per second, from the end of the warm-up (or its first applied batch) to its last.</li>
 * <li>Then records of new jobs are produced at a steady {@code rate}; for every transition, the time from the
 * production of the record that caused it to its arrival on the status topic; p50/p99/max.</li>
 * </ol>
 */
public final class IngestBenchmark {

    public static void main(String[] args) throws Exception {
        long records = args.length > 0 ? Long.parseLong(args[0]) : 1_000_000;
        int partitions = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        int rate = args.length > 2 ? Integer.parseInt(args[2]) : 5000;
        int seconds = args.length > 3 ? Integer.parseInt(args[3]) : 60;
        long warmup = args.length > 4 ? Long.parseLong(args[4]) : 0;
        String run = Long.toString(System.currentTimeMillis(), 36);
        String bootstrap = EmbeddedKafka.bootstrapServers();
        EmbeddedPostgresDb.Connection pg = EmbeddedPostgresDb.connection();
        String raw = "bench.k8s.raw." + run;
        String status = "bench.job.status." + run;
        BenchKafka.createTopic(bootstrap, raw, partitions);
        BenchKafka.createTopic(bootstrap, status, partitions);
        Workload w = new Workload("bench");
        List<String> warmJobs = new ArrayList<>();
        for (int i = 0; i < warmup / Workload.PER_JOB; i++) {
            warmJobs.add("w" + run + "-" + i);
        }
        List<String> jobs = new ArrayList<>();
        for (int i = 0; i < records / Workload.PER_JOB; i++) {
            jobs.add("b" + run + "-" + i);
        }
        long total;
        long warm;
        long t0 = System.nanoTime();
        try (KafkaProducer<String, String> producer = BenchKafka.producer(bootstrap)) {
            warm = Bench.produce(producer, raw, w, warmJobs);
            total = Bench.produce(producer, raw, w, jobs);
        }
        System.out.printf("produced %,d warm-up and %,d measured records of %,d jobs in %.1f s%n", warm, total,
                warmJobs.size() + jobs.size(), (System.nanoTime() - t0) / 1e9);
        double plain = Bench.plainRead(bootstrap, raw, warm + total) * total / (warm + total);
        System.out.printf("plain consumer: %,d records in %.1f s = %,.0f records/s%n", total, plain, total / plain);
        double[] floorCpu = new double[1];
        double floor = Bench.parsingFloor(bootstrap, raw, warm + total, floorCpu) * total / (warm + total);
        System.out.printf("parsing floor (read + decode into PodView/EventView): %,d records in %.1f s = %,.0f records/s,"
                + " %.1f µs of its thread's CPU per record%n", total, floor, total / floor, floorCpu[0] * 1e6 / (warm + total));

        ServiceProcess service = Bench.service("bench", bootstrap, pg.url(), pg.user(), pg.password(), raw, status,
                "bench-" + run);
        StatusWatch watch = new StatusWatch(bootstrap, status);
        watch.start();
        service.start();
        try (Connection db = Bench.db(pg.url(), pg.user(), pg.password())) {
            DatabaseCpu dbCpu = DatabaseCpu.of(db);
            long before = Bench.applied(db);
            long started;
            while ((started = Bench.applied(db)) <= before + (warm > 0 ? warm - 1 : 0)) {
                Thread.sleep(20);
            }
            long start = System.nanoTime();
            double cpu0 = service.cpuSeconds();
            double jit0 = service.compilerCpuSeconds();
            double dbCpu0 = dbCpu.seconds();
            TableWrites writes0 = TableWrites.of(db);
            long startStatuses = watch.count();
            if (warm == 0) {
                started = before; // measured from the first batch applied, which counts
            }
            long end = before + warm + total;
            while (Bench.applied(db) < end) {
                Thread.sleep(50);
            }
            double secs = (System.nanoTime() - start) / 1e9;
            double cpu = service.cpuSeconds() - cpu0;
            double jit = service.compilerCpuSeconds() - jit0;
            double databaseCpu = dbCpu.seconds() - dbCpu0;
            long measured = end - started;
            Thread.sleep(1000);
            TableWrites writes = TableWrites.of(db);
            long statuses = watch.count() - startStatuses;
            System.out.printf("service%s: %,d records in %.1f s = %,.0f records/s (%.0f%% of the parsing floor, %.0f%% of"
                    + " plain); %,d transitions = %,.0f/s%n", warm > 0 ? " after " + warm + " warm-up records" : "",
                    measured, secs, measured / secs, 100 * (measured / secs) / (total / floor),
                    100 * (measured / secs) / (total / plain), statuses, statuses / secs);
            System.out.printf("service CPU: %.1f µs per record (all its threads, GC and JIT included; %.2f cores busy);"
                    + " its JIT compilers %.1f µs of it%n", cpu * 1e6 / measured, cpu / secs, jit * 1e6 / measured);
            System.out.printf("database CPU: %.1f µs per record (PostgreSQL's processes; %.2f cores busy)%n",
                    databaseCpu * 1e6 / measured, databaseCpu / secs);
            System.out.println(writes.since(writes0, measured));
            System.out.println("load: " + java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).trim());
            System.out.printf("store: %,d pods, %,d events, %,d jobs%n", BenchKafka.scalar(db, "SELECT count(*) FROM pod_state"),
                    BenchKafka.scalar(db, "SELECT count(*) FROM event"), BenchKafka.scalar(db, "SELECT count(*) FROM job_state"));

            System.out.println(service.metrics("jobmon_ingest_"));
            latency(bootstrap, raw, w, run, rate, seconds, watch);
        } finally {
            service.stop();
            watch.stopWatching();
            System.out.println("service log: " + service.log());
        }
        System.exit(0);
    }

    /** Steady production of new jobs' records at {@code rate}/s; latency of every transition they cause. */
    static void latency(String bootstrap, String raw, Workload w, String run, int rate, int seconds, StatusWatch watch)
            throws Exception {
        Map<String, long[]> sentAt = new ConcurrentHashMap<>();
        Map<String, List<Workload.Raw>> plan = new ConcurrentHashMap<>();
        int jobsNeeded = rate * seconds / Workload.PER_JOB + 1;
        List<String> jobs = new ArrayList<>();
        for (int i = 0; i < jobsNeeded; i++) {
            String id = "l" + run + "-" + i;
            jobs.add(id);
            plan.put(id, w.job(id));
            sentAt.put(id, new long[Workload.PER_JOB]);
        }
        watch.track(sentAt);
        long start = System.nanoTime();
        long n = 0;
        try (KafkaProducer<String, String> producer = BenchKafka.producer(bootstrap)) {
            int wave = 50;
            for (int from = 0; from < jobs.size(); from += wave) {
                List<String> group = jobs.subList(from, Math.min(jobs.size(), from + wave));
                for (int i = 0; i < Workload.PER_JOB; i++) {
                    for (String job : group) {
                        long due = start + n * 1_000_000_000L / rate;
                        while (System.nanoTime() < due) {
                            Thread.onSpinWait();
                        }
                        Workload.Raw r = plan.get(job).get(i);
                        sentAt.get(job)[i] = System.currentTimeMillis();
                        producer.send(new ProducerRecord<>(raw, r.key(), r.value()));
                        n++;
                    }
                }
            }
        }
        Thread.sleep(5000);
        long[] lat = watch.latencies();
        Arrays.sort(lat);
        System.out.printf("latency at %,d records/s for %.0f s (%,d transitions): p50 %d ms, p99 %d ms, max %d ms%n",
                rate, (System.nanoTime() - start) / 1e9, lat.length, pct(lat, 50), pct(lat, 99),
                lat.length == 0 ? -1 : lat[lat.length - 1]);
    }

    static long pct(long[] sorted, int p) {
        return sorted.length == 0 ? -1 : sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)];
    }

    /**
     * Reads the status topic; for tracked jobs, the latency of a transition is its arrival minus the production
     * time of the job's record that caused it (the newest record of the job produced before it arrived whose
     * effects include it: the record whose index the transition's pods reveal is not needed because every
     * transition of this workload is caused by the job's pod record then last produced).
     */
    static final class StatusWatch extends Thread {
        private final KafkaConsumer<String, String> consumer;
        private final AtomicBoolean running = new AtomicBoolean(true);
        private volatile long count;
        private volatile Map<String, long[]> sentAt = Map.of();
        private final List<Long> latencies = new ArrayList<>();

        StatusWatch(String bootstrap, String topic) {
            consumer = BenchKafka.consumer(bootstrap, topic, 1000);
            setDaemon(true);
        }

        void track(Map<String, long[]> sent) {
            this.sentAt = sent;
        }

        long count() {
            return count;
        }

        synchronized long[] latencies() {
            return latencies.stream().mapToLong(Long::longValue).toArray();
        }

        void stopWatching() {
            running.set(false);
        }

        @Override
        public void run() {
            while (running.get()) {
                for (ConsumerRecord<String, String> r : consumer.poll(java.time.Duration.ofMillis(100))) {
                    count++;
                    long[] sent = sentAt.get(r.key());
                    if (sent != null) {
                        long now = System.currentTimeMillis();
                        JobStatusChanged s = CloudEvents.decode(r.value(), JobStatusChanged.class).data();
                        long cause = causeTime(sent, s, now);
                        if (cause > 0) {
                            synchronized (this) {
                                latencies.add(now - cause);
                            }
                        }
                    }
                }
            }
            consumer.close();
        }

        /** The production time of the pod record that moved the job to this status (Workload's fixed order). */
        private static long causeTime(long[] sent, JobStatusChanged s, long now) {
            int index = switch (s.status()) {
                case PENDING -> 0; // first pod created
                case RUNNING -> 15; // second pod running
                case SUCCEEDED -> 99; // second pod succeeded
                default -> -1;
            };
            return index < 0 || sent[index] == 0 ? -1 : sent[index];
        }
    }
}
