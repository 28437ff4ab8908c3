package io.jobmon.logs.intake;

import io.jobmon.contracts.messaging.BatchSplit;
import io.jobmon.contracts.messaging.ConsumerRule;
import io.jobmon.logs.chunk.StreamKey;
import io.jobmon.logs.config.LogsConfig;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.mutiny.core.Vertx;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * Consumes {@code jobmon.logs.lines} in batches: each record parsed, its lines masked and cut (an invalid record is
 * nacked into {@code jobmon.logs.lines.dlq} with the reason: contracts' {@link BatchSplit}, which also keeps each
 * partition's last offset), attributed to their job, and added to the open chunks. Parsing and encoding run on
 * Quarkus' worker pool, never on the event loop.
 * Open chunks are stored with the Kafka positions they hold at least every {@code flush-interval} (a timer), when
 * too many bytes wait (the consumer then waits too: the partitions are held), and on shutdown; the batches are
 * acknowledged only then. A failing store is retried until it succeeds (the suite's {@link ConsumerRule}).
 */
@ApplicationScoped
public class LinesConsumer {

    private static final Logger LOG = Logger.getLogger(LinesConsumer.class);

    private final LineProcessor[] processors;
    private final PodJobs podJobs;
    private final PodIdentities identities;
    private final FlushWriter writer;
    private final IngestMetrics metrics;
    private final String topic;
    private final long flushIntervalNanos;
    private final long maxBufferedBytes;

    private OpenChunks current = new OpenChunks();
    private CompletableFuture<Void> lastFlush = CompletableFuture.completedFuture(null);

    private static final String CHANNEL = "logs-lines";
    private final ConsumerRule rule;

    public LinesConsumer(LogsConfig config, PodJobs podJobs, PodIdentities identities, FlushWriter writer,
            IngestMetrics metrics, ConsumerRule rule,
            @ConfigProperty(name = "mp.messaging.incoming.logs-lines.topic") String topic) {
        this.identities = identities;
        this.rule = rule;
        int threads = Math.max(1, config.intake().decodeThreads());
        this.processors = new LineProcessor[threads];
        for (int i = 0; i < threads; i++) {
            processors[i] = new LineProcessor(config);
        }
        this.podJobs = podJobs;
        this.writer = writer;
        this.metrics = metrics;
        this.topic = topic;
        this.flushIntervalNanos = config.intake().flushInterval().toNanos();
        this.maxBufferedBytes = config.intake().maxBufferedBytes();
    }

    /** One record's parsed lines, the lines it held that are not stored, and the pod identities it named first. */
    private record Parsed(List<Entry> entries, int ignored, List<PodIdentity> identities) {
    }

    /** A batch split (its invalid records, the last offset read of each partition) and its records' lines. */
    private record Decoded(BatchSplit<Parsed> split, List<Entry> entries, int ignored, List<PodIdentity> identities) {

        static Decoded of(BatchSplit<Parsed> split) {
            List<Parsed> records = split.valid();
            if (records.size() == 1) {
                Parsed p = records.get(0);
                return new Decoded(split, p.entries(), p.ignored(), p.identities());
            }
            int lines = 0;
            for (Parsed p : records) {
                lines += p.entries().size();
            }
            List<Entry> entries = new ArrayList<>(lines);
            List<PodIdentity> identities = new ArrayList<>();
            int ignored = 0;
            for (Parsed p : records) {
                entries.addAll(p.entries());
                identities.addAll(p.identities());
                ignored += p.ignored();
            }
            return new Decoded(split, entries, ignored, identities);
        }
    }

    /**
     * A line as stored, at its Kafka position, with its UTF-8 text {@code text[from, to)}: mostly the record's own
     * bytes (copied into the open chunk by {@link #append} before the batch is let go).
     */
    private record Entry(int partition, StreamKey stream, long time, long offset, int sub, int flags, byte[] text, int from,
            int to) {

        Entry withStream(StreamKey s) {
            return new Entry(partition, s, time, offset, sub, flags, text, from, to);
        }
    }

    @Incoming("logs-lines")
    public Uni<Void> consume(KafkaRecordBatch<ByteBuffer, ByteBuffer> batch) {
        return decodeInParallel(batch)
                .call(this::deadLetter)
                .call(this::storeIdentities)
                .chain(this::attribute)
                .invoke(d -> append(d, batch))
                .chain(this::afterAppend);
    }

    /**
     * Decodes the batch on the worker pool in up to {@code decode-threads} parts, the records of a partition always in
     * the same part (its lines keep their order, and a processor's private key block its state; batches come one at a
     * time, so a processor is used by one thread at a time).
     */
    private Uni<Decoded> decodeInParallel(KafkaRecordBatch<ByteBuffer, ByteBuffer> batch) {
        int n = processors.length;
        List<List<KafkaRecord<ByteBuffer, ByteBuffer>>> parts = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            parts.add(new ArrayList<>());
        }
        for (KafkaRecord<ByteBuffer, ByteBuffer> r : batch.getRecords()) {
            parts.get(Math.floorMod(r.getPartition(), n)).add(r);
        }
        List<Uni<BatchSplit<Parsed>>> work = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (!parts.get(i).isEmpty()) {
                LineProcessor processor = processors[i];
                List<KafkaRecord<ByteBuffer, ByteBuffer>> part = parts.get(i);
                work.add(Uni.createFrom().item(() -> BatchSplit.of(part, (r, offset) -> parse(r, offset, processor)))
                        .runSubscriptionOn(Infrastructure.getDefaultWorkerPool()));
            }
        }
        if (work.isEmpty()) {
            return Uni.createFrom().item(Decoded.of(BatchSplit.join(List.of())));
        }
        return Uni.join().all(work).andFailFast().map(splits -> Decoded.of(BatchSplit.join(splits)));
    }

    /** One record's lines; an {@link io.jobmon.contracts.events.InvalidRecordException} sends it to the DLQ. */
    private static Parsed parse(KafkaRecord<ByteBuffer, ByteBuffer> record, long offset, LineProcessor processor) {
        long kafkaTime = record.getTimestamp() == null ? System.currentTimeMillis() * 1_000_000L
                : Times.nanos(record.getTimestamp());
        RecordParser.Parsed parsed = parse(processor.parser(), record.getPayload(), kafkaTime);
        List<Entry> entries = new ArrayList<>(parsed.lines().size());
        List<PodIdentity> identities = List.of();
        int partition = record.getPartition();
        int sub = 0;
        for (ShipperLine l : parsed.lines()) {
            if (processor.newIdentity(l.identity())) {
                (identities.isEmpty() ? identities = new ArrayList<>() : identities).add(l.identity());
            }
            LineProcessor.Processed p = processor.process(l);
            entries.add(new Entry(partition, l.stream(), l.timeNanos(), offset, sub++, p.flags(), p.text(), p.from(),
                    p.to()));
        }
        return new Parsed(entries, parsed.ignored(), identities);
    }

    /** The value where Kafka's fetch left it (a heap buffer; the value deserializer copies nothing). */
    private static RecordParser.Parsed parse(RecordParser parser, ByteBuffer value, long kafkaTime) {
        if (value == null) {
            return parser.parse((byte[]) null, kafkaTime);
        }
        if (!value.hasArray()) {
            byte[] copy = new byte[value.remaining()];
            value.duplicate().get(copy);
            return parser.parse(copy, kafkaTime);
        }
        return parser.parse(value.array(), value.arrayOffset() + value.position(), value.remaining(), kafkaTime);
    }

    /** Invalid records go to the DLQ at once, with the reason; a crash before the next flush may send one twice. */
    private Uni<Void> deadLetter(Decoded d) {
        metrics.ignored(d.ignored());
        int invalid = d.split().invalid();
        if (invalid > 0) {
            metrics.deadLettered(invalid);
            rule.count(CHANNEL, topic, ConsumerRule.Outcome.DEAD_LETTERED, invalid);
        }
        return d.split().deadLetter();
    }

    /** New pod identities (UID, container id) are stored before their lines (rare: once per container). */
    private Uni<Void> storeIdentities(Decoded d) {
        if (d.identities().isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return rule.apply(CHANNEL, () -> identities.store(d.identities()));
    }

    /** User lines without the job label take the job whose snapshot names their pod, if one does yet. */
    private Uni<Decoded> attribute(Decoded d) {
        Set<String> pods = new HashSet<>();
        for (Entry e : d.entries()) {
            if (e.stream().jobId() == null && !e.stream().system()) {
                pods.add(e.stream().namespace() + "/" + e.stream().pod());
            }
        }
        if (pods.isEmpty()) {
            return Uni.createFrom().item(d);
        }
        return rule.apply(CHANNEL, () -> podJobs.resolve(pods)).map(jobs -> {
            if (jobs.isEmpty()) {
                return d;
            }
            List<Entry> out = new ArrayList<>(d.entries().size());
            for (Entry e : d.entries()) {
                String job = e.stream().jobId() == null && !e.stream().system()
                        ? jobs.get(e.stream().namespace() + "/" + e.stream().pod()) : null;
                out.add(job == null ? e : e.withStream(e.stream().withJob(job)));
            }
            return new Decoded(d.split(), out, d.ignored(), d.identities());
        });
    }

    private synchronized void append(Decoded d, KafkaRecordBatch<ByteBuffer, ByteBuffer> batch) {
        for (Entry e : d.entries()) {
            current.add(e.stream(), e.partition(), e.time(), e.offset(), e.sub(), e.flags(), e.text(), e.from(), e.to());
        }
        d.split().last().forEach((p, o) -> current.read(p, o, null));
        current.acks.add(ackOf(batch));
        current.records += batch.getRecords().size() - d.split().invalid();
    }

    /**
     * What the batch's own ack does (each partition's last record acknowledged, in turn), holding only those records:
     * a generation waits up to a flush for its acks, and holding the batches would keep every record's payload and
     * message objects alive until then (hundreds of MB at full speed, copied by each young collection).
     */
    private static Supplier<CompletionStage<Void>> ackOf(KafkaRecordBatch<ByteBuffer, ByteBuffer> batch) {
        List<KafkaRecord<ByteBuffer, ByteBuffer>> last = List.copyOf(batch.getLatestOffsetRecords().values());
        return () -> {
            CompletionStage<Void> done = CompletableFuture.completedFuture(null);
            for (KafkaRecord<ByteBuffer, ByteBuffer> r : last) {
                done = done.thenCompose(v -> r.ack());
            }
            return done;
        };
    }

    private Uni<Void> afterAppend(Decoded d) {
        boolean full;
        boolean due;
        synchronized (this) {
            full = current.rawBytes >= maxBufferedBytes;
            due = current.openedAt >= 0 && System.nanoTime() - current.openedAt >= flushIntervalNanos;
        }
        if (full) {
            return flush();
        }
        if (due) {
            flush().subscribe().with(v -> { }, e -> LOG.warn("flush failed", e));
        }
        return Uni.createFrom().voidItem();
    }

    /** The flush timer: a Vert.x periodic (the scheduler's every() does not go below a second). */
    void onStart(@Observes StartupEvent start, Vertx vertx) {
        long every = Math.max(10, flushIntervalNanos / 5_000_000L);
        vertx.setPeriodic(every, id -> tick().subscribe().with(v -> { }, e -> LOG.warn("timed flush failed", e)));
    }

    Uni<Void> tick() {
        synchronized (this) {
            if (current.openedAt < 0 || System.nanoTime() - current.openedAt < flushIntervalNanos) {
                return Uni.createFrom().voidItem();
            }
        }
        return flush();
    }

    void onStop(@Observes ShutdownEvent stop) {
        try {
            flush().await().atMost(Duration.ofSeconds(30));
        } catch (RuntimeException e) {
            LOG.warnf("open chunks not stored at shutdown (their records are read again): %s", e.toString());
        }
    }

    /** Stores the current generation after the flushes before it; completes when it is stored. */
    public Uni<Void> flush() {
        CompletableFuture<Void> mine;
        synchronized (this) {
            if (current.isEmpty()) {
                CompletableFuture<Void> pending = lastFlush;
                return Uni.createFrom().completionStage(pending);
            }
            OpenChunks g = current;
            current = new OpenChunks();
            mine = lastFlush.handle((v, e) -> null)
                    .thenCompose(v -> store(g).subscribeAsCompletionStage());
            lastFlush = mine;
        }
        return Uni.createFrom().completionStage(mine);
    }

    private Uni<Void> store(OpenChunks g) {
        long start = System.nanoTime();
        return Uni.createFrom().item(() -> writer.encode(g)).runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
                .chain(chunks -> rule.apply(CHANNEL, () -> writer.store(topic, chunks, g.next)))
                .invoke(s -> {
                    metrics.stored(s.lines(), s.rawBytes(), s.masked(), s.cut());
                    rule.count(CHANNEL, topic, ConsumerRule.Outcome.APPLIED, g.records);
                    metrics.flushed(System.nanoTime() - start);
                })
                .chain(() -> {
                    List<Uni<Void>> acks = new ArrayList<>();
                    g.acks.forEach(a -> acks.add(Uni.createFrom().completionStage(a).onFailure().recoverWithNull()));
                    return acks.isEmpty() ? Uni.createFrom().voidItem() : Uni.join().all(acks).andCollectFailures().replaceWithVoid();
                });
    }
}
