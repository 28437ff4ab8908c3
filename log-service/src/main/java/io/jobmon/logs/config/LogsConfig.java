package io.jobmon.logs.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** log-service: intake, chunks, search, follow and retention. */
@ConfigMapping(prefix = "jobmon.logs")
public interface LogsConfig {

    /** Intake of jobmon.logs.lines. */
    Intake intake();

    /** Chunks: how lines are grouped, compressed and compacted. */
    Chunks chunks();

    /** Secret masking at ingest. */
    Masking masking();

    /** Queries: search bounds. */
    Query query();

    /** Follows (Server-Sent Events). */
    Follow follow();

    /** Retention. */
    Retention retention();

    /** Whose a node's system line is (attribution/). */
    Attribution attribution();

    /** Where chunk bodies live: {@code postgres} (table chunk_body, the default) or {@code s3} (ADR 0038). */
    @WithDefault("postgres")
    String chunkStore();

    /** The S3-compatible object store (MinIO, Ceph RGW) of {@code chunk-store=s3}. */
    S3 s3();

    interface S3 {
        /** The store's URL, e.g. http://minio.storage:9000 (required with chunk-store=s3). */
        Optional<String> endpoint();

        @WithDefault("jobmon-logs")
        String bucket();

        /** Key prefix of the bodies: {@code <prefix><day>/<id>}. */
        @WithDefault("chunks/")
        String prefix();

        /** Signing region (MinIO and Ceph accept any; us-east-1 is their default). */
        @WithDefault("us-east-1")
        String region();

        /** Path-style URLs (http://host/bucket/key): what MinIO, Ceph RGW and s3proxy expect without wildcard DNS. */
        @WithDefault("true")
        boolean pathStyle();

        /** Access key and secret (env JOBMON_LOGS_S3_ACCESS_KEY/SECRET_KEY); absent: the SDK's default chain. */
        Optional<String> accessKey();

        Optional<String> secretKey();

        /** Creates the bucket at start when missing (local stack, tests); on a platform the bucket is provisioned. */
        @WithDefault("false")
        boolean createBucket();

        /** Requests in flight per store operation (a flush's puts, a search's gets) and connections of the client. */
        @WithDefault("16")
        int concurrency();

        /**
         * Bytes of bodies (or their fronts) kept in memory after a read, least recently used out (0: none): chunks never
         * change, and tails and follows read a job's newest chunks again and again.
         */
        @WithDefault("67108864")
        long cacheBytes();

        /**
         * Whether a body this replica puts goes into the cache too: the newest chunks, which tails and follows read, are
         * the ones put last (ADR 0046). Entries are the replica's own; bodies never change, so none goes stale.
         */
        @WithDefault("true")
        boolean cacheWritten();

        /** How long the client keeps an idle connection to the store open (TCP keep-alive on): reused by the next tail. */
        @WithDefault("30s")
        Duration connectionMaxIdle();

        /** A body older than this whose chunk is not in the index is an orphan (a flush that crashed before commit). */
        @WithDefault("10m")
        Duration orphanGrace();

        /** How often the bodies of the last two days are swept for orphans (all days once a day, with retention). */
        @WithDefault("1h")
        Duration sweepEvery();
    }

    interface Attribution {
        /**
         * How far outside a GPU holding's [from, to] (as metrics-service saw it, a scrape at a time) a line naming the
         * GPU still counts as the holding pod's.
         */
        @WithDefault("30s")
        Duration holdingSlack();

        /** How often a follow reloads a job's identity (new pods, containers, holdings, OOM events). */
        @WithDefault("5s")
        Duration refresh();
    }

    interface Intake {
        /** Pod label naming the job a pod belongs to. */
        @WithDefault("jobmon.io/job-id")
        String jobLabel();

        /** A line longer than this (UTF-8 bytes) is cut there and ends with a visible marker. */
        @WithDefault("32768")
        int maxLineBytes();

        /** Open chunks are written (with the Kafka positions they hold) at least this often: the follow latency floor. */
        @WithDefault("500ms")
        Duration flushInterval();

        /** Lines buffered (raw bytes, all streams) above which a flush starts at once and the consumer waits for it. */
        @WithDefault("33554432")
        long maxBufferedBytes();

        /** How long a line whose job is not known yet is kept, waiting for the job to arrive on jobmon.job.changes. */
        @WithDefault("30m")
        Duration unknownJobGrace();

        /** Journald units or syslog identifiers (without .service) whose lines are system logs of their node. */
        @WithDefault("kubelet,containerd,crio,dockerd,kernel,nvidia-persistenced,nvidia-fabricmanager")
        List<String> systemUnits();

        /** Container names (regex) whose logs are system logs of their node, e.g. the GPU device plugin's. */
        @WithDefault(".*device-plugin.*|nvidia-driver.*|dcgm.*")
        String systemContainers();

        /**
         * Parts of a batch whose records are parsed, masked and cut at once on the worker pool (by partition, so a
         * stream's lines stay in order).
         */
        @WithDefault("2")
        int decodeThreads();

        /** Time a pod with no known job is remembered as unknown before the store is asked again. */
        @WithDefault("5s")
        Duration unknownPodCacheTtl();
    }

    interface Chunks {
        /** A stream's lines are compacted into chunks of about this many raw bytes. */
        @WithDefault("1048576")
        int targetRawBytes();

        /** Freshly flushed chunks of a stream older than this are compacted even when small. */
        @WithDefault("60s")
        Duration maxAge();

        /** zstd level of compacted chunks (flushed chunks use level 1: they live a minute); 9 measured 0.114, 6 0.126. */
        @WithDefault("9")
        int zstdLevel();

        /** Largest keyword filter per chunk in bits (a power of two); small chunks fold theirs down. */
        @WithDefault("131072")
        int filterBits();

        /** How often a replica looks for streams to compact. */
        @WithDefault("5s")
        Duration compactEvery();
    }

    interface Masking {
        /** Whether secrets are masked at ingest (benchmarks compare with it off; keep it on). */
        @WithDefault("true")
        boolean enabled();

        /**
         * Masking rules by name: {@code regex} (Java syntax; the part to hide is the named group {@code secret},
         * or the whole match) and an optional {@code hint} list: lowercase literals one of which a line must contain
         * before the regex runs (cheap pre-check). Replaces the defaults of {@code MaskingRules} with the same name.
         */
        Map<String, Rule> rules();

        /** The text that replaces a secret. */
        @WithDefault("****")
        String replacement();

        interface Rule {
            /** The pattern; group "secret" is replaced, else the whole match. */
            String regex();

            /** Lowercase literals that must occur in the line for the regex to run. */
            Optional<List<String>> hint();
        }
    }

    interface Query {
        /** A regex or keyword search stops with a 422 problem after this long. */
        @WithDefault("10s")
        Duration searchDeadline();

        /** Longest regex accepted. */
        @WithDefault("512")
        int maxRegexLength();

        /** Largest tail=N. */
        @WithDefault("10000")
        int maxTail();

        /**
         * Threads decompressing and searching chunks that one user's work may hold at once; the pool has one more, so
         * another user's work never waits for theirs (each user's work waits in a queue of its own, served in turn:
         * SearchPool).
         */
        @WithDefault("2")
        int searchThreads();

        /** Searches (requests reading chunks) one user may have running at once; more wait their turn (SearchPool.run). */
        @WithDefault("4")
        int perUserSearches();
    }

    interface Follow {
        /** Concurrent follows one user may have open (across replicas). */
        @WithDefault("5")
        int perUserLimit();

        /** How often a follow asks the store for new lines. */
        @WithDefault("200ms")
        Duration pollInterval();

        /** Comment line sent when nothing else was, so proxies keep the connection. */
        @WithDefault("15s")
        Duration heartbeat();

        /** Lines shown before following when the client sends no Last-Event-ID. */
        @WithDefault("100")
        int initialTail();

        /** How long a stream ticket (a browser's way to open a follow, ADR 0027) may wait to be used. */
        @WithDefault("60s")
        Duration ticketTtl();

        /**
         * A follow of a finished job ends (event {@code end}) once nothing new came for a poll and the job ended at
         * least this long ago: a shipper's last lines, sent after the job's end was known, still show.
         */
        @WithDefault("10s")
        Duration endGrace();
    }

    interface Retention {
        /** Days a job's logs are kept after it ends (running jobs keep everything). */
        @WithDefault("30")
        int days();

        /** Per-tenant days, e.g. jobmon.logs.retention.tenants.t1=90. */
        Map<String, Integer> tenants();

        /** When the daily expiry runs. */
        @WithDefault("0 17 0 * * ?")
        String cron();
    }
}
