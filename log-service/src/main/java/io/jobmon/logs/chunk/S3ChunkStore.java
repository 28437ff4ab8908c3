package io.jobmon.logs.chunk;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.jobmon.logs.config.LogsConfig;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Transaction;
import io.vertx.mutiny.sqlclient.Tuple;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.jboss.logging.Logger;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.http.nio.netty.SdkEventLoopGroup;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Chunk bodies in an S3-compatible object store (MinIO, Ceph RGW; ADR 0038), keyed {@code <prefix><day>/<id>} so that
 * a day's bodies list on their own. A body is put before the transaction writing its index row commits, and deleted
 * only after the transaction removing its row committed: a crash in between leaves an orphan body, never an index row
 * without its body; {@link #sweepOrphans} lists a day's keys and removes those the index does not hold.
 */
public class S3ChunkStore implements ChunkStore, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(S3ChunkStore.class);
    /** DeleteObjects takes at most this many keys. */
    static final int DELETE_BATCH = 1000;
    private static final String INDEXED = "SELECT id FROM chunk WHERE day = $1 AND id = ANY($2::bigint[])";

    private final Pool pool;
    private final S3AsyncClient s3;
    private final String bucket;
    private final String prefix;
    private final int concurrency;
    /** Bodies (or their fronts) read lately: chunks never change, tails and follows read the newest ones again. */
    private final Cache<ChunkRef, Cached> cache;
    /** GET requests made (a body or its front), for the tests and the benchmark. */
    private final AtomicLong gets = new AtomicLong();
    /** Whether a body put goes into the cache too (the newest chunks, which tails and follows read, were put last). */
    private final boolean cacheWritten;

    /** A cached body or front; {@code whole} when it is the entire body. */
    private record Cached(byte[] bytes, boolean whole) {
    }

    public S3ChunkStore(Pool pool, LogsConfig.S3 config) {
        this(pool, client(config), config.bucket(), config.prefix(), config.concurrency(), config.cacheBytes(),
                config.cacheWritten());
        if (config.createBucket()) {
            createBucketIfMissing();
        }
    }

    S3ChunkStore(Pool pool, S3AsyncClient s3, String bucket, String prefix, int concurrency, long cacheBytes,
            boolean cacheWritten) {
        this.pool = pool;
        this.s3 = s3;
        this.bucket = bucket;
        this.prefix = prefix;
        this.concurrency = Math.max(1, concurrency);
        this.cache = cacheBytes <= 0 ? null : Caffeine.newBuilder().maximumWeight(cacheBytes)
                .weigher((ChunkRef k, Cached v) -> v.bytes().length + 64).build();
        this.cacheWritten = cacheWritten && cache != null;
    }

    /**
     * The async client on Netty: path-style, checksums only where S3 requires them (MinIO, Ceph and s3proxy agree);
     * connections kept {@code s3.connection-max-idle} (the client's default, 5 s, made a tail after a pause open its
     * connections again: a TLS handshake each on a platform; ADR 0046) with TCP keep-alive.
     */
    static S3AsyncClient client(LogsConfig.S3 c) {
        AwsCredentialsProvider credentials = c.accessKey().isPresent() && c.secretKey().isPresent()
                ? StaticCredentialsProvider.create(AwsBasicCredentials.create(c.accessKey().get(), c.secretKey().get()))
                : DefaultCredentialsProvider.builder().build();
        return S3AsyncClient.builder()
                .endpointOverride(URI.create(c.endpoint().orElseThrow(() -> new IllegalStateException(
                        "jobmon.logs.s3.endpoint is required with jobmon.logs.chunk-store=s3"))))
                .region(Region.of(c.region()))
                .forcePathStyle(c.pathStyle())
                .credentialsProvider(credentials)
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .httpClientBuilder(NettyNioAsyncHttpClient.builder().maxConcurrency(Math.max(4, c.concurrency() * 2))
                        .connectionAcquisitionTimeout(Duration.ofSeconds(30))
                        .connectionMaxIdleTime(c.connectionMaxIdle()).tcpKeepAlive(true)
                        .eventLoopGroupBuilder(SdkEventLoopGroup.builder().numberOfThreads(2)))
                .build();
    }

    public String key(ChunkRef ref) {
        return prefix + ref.day() + "/" + ref.id();
    }

    @Override
    public Uni<Void> put(SqlConnection conn, List<Body> bodies) {
        if (bodies.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return Multi.createFrom().iterable(bodies).onItem()
                .transformToUni(b -> call(() -> s3.putObject(r -> r.bucket(bucket).key(key(b.ref()))
                        .contentType("application/zstd"), AsyncRequestBody.fromBytes(b.bytes())))
                        .invoke(() -> {
                            if (cacheWritten) { // a body never changes: a rollback leaves an entry no index row names
                                cache.put(b.ref(), new Cached(b.bytes(), true));
                            }
                        }))
                .merge(concurrency).collect().last().replaceWithVoid();
    }

    @Override
    public Uni<Map<ChunkRef, byte[]>> get(List<ChunkRef> refs, int[] firstBytes) {
        if (refs.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        List<Integer> indexes = new ArrayList<>(refs.size());
        for (int i = 0; i < refs.size(); i++) {
            indexes.add(i);
        }
        Map<ChunkRef, byte[]> out = new HashMap<>();
        return Multi.createFrom().iterable(indexes).onItem()
                .transformToUni(i -> read(refs.get(i), firstBytes[i]).invoke(bytes -> {
                    if (bytes != null) {
                        synchronized (out) {
                            out.put(refs.get(i), bytes);
                        }
                    }
                }))
                .merge(concurrency).collect().last().replaceWith(out);
    }

    /** A body, or its first {@code n} bytes ({@code Range: bytes=0-(n-1)}) when n > 0; null when it is gone. */
    private Uni<byte[]> read(ChunkRef ref, int n) {
        Cached hit = cache == null ? null : cache.getIfPresent(ref);
        if (hit != null && (hit.whole() || n > 0 && hit.bytes().length >= n)) {
            byte[] b = hit.bytes();
            return Uni.createFrom().item(n > 0 && n < b.length ? Arrays.copyOf(b, n) : b);
        }
        GetObjectRequest.Builder req = GetObjectRequest.builder().bucket(bucket).key(key(ref));
        if (n > 0) {
            req.range("bytes=0-" + (n - 1));
        }
        gets.incrementAndGet();
        return call(() -> s3.getObject(req.build(), new SizedBytes()))
                .invoke(b -> {
                    if (cache != null) {
                        cache.put(ref, new Cached(b, n <= 0 || b.length < n));
                    }
                })
                .onFailure(NoSuchKeyException.class).recoverWithNull();
    }

    /**
     * Deletes the bodies once {@code conn}'s transaction (removing their index rows) committed, never before: a
     * rollback keeps them, a crash after the commit leaves orphans for {@link #sweepOrphans}. Without a transaction,
     * at once.
     */
    @Override
    public Uni<Void> delete(SqlConnection conn, List<ChunkRef> refs) {
        if (refs.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        Transaction tx = conn == null ? null : conn.transaction();
        if (tx == null) {
            return deleteNow(refs).replaceWithVoid();
        }
        List<ChunkRef> gone = List.copyOf(refs);
        tx.getDelegate().completion().onSuccess(v -> deleteNow(gone).subscribe().with(
                n -> { }, e -> LOG.warnf("deleting %d chunk bodies failed (the orphan sweep retries): %s", gone.size(), e)));
        return Uni.createFrom().voidItem();
    }

    /** Deletes bodies with DeleteObjects, {@value #DELETE_BATCH} a request; @return how many were deleted. */
    Uni<Integer> deleteNow(List<ChunkRef> refs) {
        if (cache != null) {
            cache.invalidateAll(refs);
        }
        List<String> keys = refs.stream().map(this::key).toList();
        List<List<String>> batches = new ArrayList<>();
        for (int i = 0; i < keys.size(); i += DELETE_BATCH) {
            batches.add(keys.subList(i, Math.min(keys.size(), i + DELETE_BATCH)));
        }
        return Multi.createFrom().iterable(batches).onItem()
                .transformToUni(batch -> call(() -> s3.deleteObjects(r -> r.bucket(bucket).delete(Delete.builder().quiet(true)
                        .objects(batch.stream().map(k -> ObjectIdentifier.builder().key(k).build()).toList()).build())))
                        .map(r -> batch.size() - failed(r)))
                .merge(Math.min(4, concurrency)).collect().with(java.util.stream.Collectors.summingInt(Integer::intValue));
    }

    private static int failed(DeleteObjectsResponse r) {
        if (r.hasErrors() && !r.errors().isEmpty()) {
            LOG.warnf("%d chunk bodies not deleted, e.g. %s: %s", r.errors().size(), r.errors().get(0).key(),
                    r.errors().get(0).message());
            return r.errors().size();
        }
        return 0;
    }

    /** How many GETs of bodies (or their fronts) this store made so far. */
    public long gets() {
        return gets.get();
    }

    @Override
    public boolean keepsNewestInIndex() {
        return true;
    }

    /** Three groups (48 requests, the client's connections) in flight while one is searched. */
    @Override
    public int readAhead() {
        return 3;
    }

    /**
     * Removes the bodies of days from {@code since} on (null: every day) that are older than {@code grace} and whose
     * chunk the index does not hold: a page of keys (1,000) is one index query and at most one DeleteObjects.
     * @return how many were removed.
     */
    @Override
    public Uni<Integer> sweepOrphans(Duration grace, LocalDate since) {
        Instant before = Instant.now().minus(grace);
        return days().chain(days -> Multi.createFrom().iterable(days.stream()
                        .filter(d -> since == null || !d.isBefore(since)).toList())
                .onItem().transformToUniAndConcatenate(d -> sweepDay(d, before, null))
                .collect().with(java.util.stream.Collectors.summingInt(Integer::intValue)));
    }

    /** The days that hold bodies (the common prefixes under {@code prefix}). */
    Uni<List<LocalDate>> days() {
        return call(() -> s3.listObjectsV2(r -> r.bucket(bucket).prefix(prefix).delimiter("/"))).map(r -> {
            List<LocalDate> days = new ArrayList<>();
            for (CommonPrefix p : r.commonPrefixes()) {
                String day = p.prefix().substring(prefix.length()).replace("/", "");
                try {
                    days.add(LocalDate.parse(day));
                } catch (DateTimeParseException e) {
                    LOG.debugf("not a day of chunk bodies: %s", p.prefix());
                }
            }
            return days;
        });
    }

    private Uni<Integer> sweepDay(LocalDate day, Instant before, String token) {
        return call(() -> s3.listObjectsV2(r -> r.bucket(bucket).prefix(prefix + day + "/").continuationToken(token)))
                .chain(page -> sweepPage(day, before, page).chain(n -> Boolean.TRUE.equals(page.isTruncated())
                        ? sweepDay(day, before, page.nextContinuationToken()).map(m -> n + m)
                        : Uni.createFrom().item(n)));
    }

    private Uni<Integer> sweepPage(LocalDate day, Instant before, ListObjectsV2Response page) {
        Set<Long> old = new HashSet<>();
        for (S3Object o : page.contents()) {
            if (o.lastModified() != null && o.lastModified().isBefore(before)) {
                String id = o.key().substring(o.key().lastIndexOf('/') + 1);
                try {
                    old.add(Long.parseLong(id));
                } catch (NumberFormatException e) {
                    LOG.debugf("not a chunk body: %s", o.key());
                }
            }
        }
        if (old.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        return pool.preparedQuery(INDEXED).execute(Tuple.of(day, old.toArray(Long[]::new))).chain(rows -> {
            Set<Long> indexed = new HashSet<>();
            for (Row r : rows) {
                indexed.add(r.getLong("id"));
            }
            List<ChunkRef> orphans = old.stream().filter(id -> !indexed.contains(id)).map(id -> new ChunkRef(day, id)).toList();
            if (!orphans.isEmpty()) {
                LOG.infof("removing %d orphan chunk bodies of %s", orphans.size(), day);
            }
            return orphans.isEmpty() ? Uni.createFrom().item(0) : deleteNow(orphans);
        });
    }

    private void createBucketIfMissing() {
        try {
            s3.headBucket(r -> r.bucket(bucket)).join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof NoSuchBucketException
                    || e.getCause() instanceof S3Exception s && s.statusCode() == 404) {
                s3.createBucket(r -> r.bucket(bucket)).join();
                LOG.infof("created bucket %s for chunk bodies", bucket);
            } else {
                throw e;
            }
        }
    }

    /** The SDK's future as a Uni that resumes on the caller's Vert.x context (a transaction's statements stay there). */
    private static <T> Uni<T> call(Supplier<CompletableFuture<T>> request) {
        Context context = Vertx.currentContext();
        Uni<T> uni = Uni.createFrom().completionStage(request)
                .onFailure(CompletionException.class).transform(e -> e.getCause() == null ? e : e.getCause());
        return context == null ? uni : uni.emitOn(r -> context.runOnContext(v -> r.run()));
    }

    @Override
    public void close() {
        s3.close();
    }
}
