package io.jobmon.logs.s3;

import io.jobmon.logs.config.LogsConfig;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.nio2blob.FilesystemNio2BlobStore;
import org.gaul.s3proxy.nio2blob.TransientNio2BlobStore;

/**
 * A real S3 protocol server for the tests: s3proxy in this JVM on a free port, bodies in memory (its transient
 * backend), AWS V4 signatures checked; one per JVM, stopped by a shutdown hook.
 */
public class S3TestResource implements QuarkusTestResourceLifecycleManager {

    public static final String ACCESS_KEY = "jobmon-test";
    public static final String SECRET_KEY = "jobmon-test-secret";
    public static final String BUCKET = "jobmon-logs-test";

    private static S3Proxy proxy;
    /** s3proxy's Jetty at INFO: its DEBUG messages are formatted (costly) where no logging is configured (benchmarks). */
    private static final org.jboss.logmanager.Logger QUIET = org.jboss.logmanager.Logger.getLogger("org.gaul");

    /** Starts the server once (bodies in memory); @return its endpoint. */
    public static String endpoint() {
        return endpoint(null);
    }

    /** Starts the server once, its bodies in files under {@code dir} (null: in memory); @return its endpoint. */
    public static synchronized String endpoint(Path dir) {
        if (proxy == null) {
            QUIET.setLevel(java.util.logging.Level.INFO);
            try {
                int port;
                try (ServerSocket s = new ServerSocket(0)) {
                    port = s.getLocalPort();
                }
                S3Proxy p = S3Proxy.builder()
                        .blobStore(dir == null ? new TransientNio2BlobStore() : new FilesystemNio2BlobStore(dir.toString()))
                        .endpoint(URI.create("http://127.0.0.1:" + port))
                        .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY).build();
                p.start();
                while (!"STARTED".equals(p.getState())) {
                    Thread.sleep(5);
                }
                proxy = p;
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    try {
                        p.stop();
                    } catch (Exception e) {
                        // the JVM is going
                    }
                }));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            } catch (Exception e) {
                throw new IllegalStateException("s3proxy did not start", e);
            }
        }
        return "http://127.0.0.1:" + proxy.getPort();
    }

    /** The configuration of {@code chunk-store=s3} against this server. */
    public static Map<String, String> config() {
        return config(null);
    }

    /** The configuration of {@code chunk-store=s3} against this server, started with its bodies under {@code dir}. */
    public static Map<String, String> config(Path dir) {
        return Map.of("jobmon.logs.chunk-store", "s3",
                "jobmon.logs.s3.endpoint", endpoint(dir),
                "jobmon.logs.s3.bucket", BUCKET,
                "jobmon.logs.s3.access-key", ACCESS_KEY,
                "jobmon.logs.s3.secret-key", SECRET_KEY,
                "jobmon.logs.s3.create-bucket", "true");
    }

    /** The store's settings against this server, for programs that build an {@link io.jobmon.logs.chunk.S3ChunkStore}. */
    public static LogsConfig.S3 settings(String endpoint) {
        return settings(endpoint, 64L << 20);
    }

    /** As {@link #settings(String)}, with a cache of {@code cacheBytes} (0: none). */
    public static LogsConfig.S3 settings(String endpoint, long cacheBytes) {
        return new LogsConfig.S3() {
            public Optional<String> endpoint() {
                return Optional.of(endpoint);
            }

            public String bucket() {
                return BUCKET;
            }

            public String prefix() {
                return "chunks/";
            }

            public String region() {
                return "us-east-1";
            }

            public boolean pathStyle() {
                return true;
            }

            public Optional<String> accessKey() {
                return Optional.of(ACCESS_KEY);
            }

            public Optional<String> secretKey() {
                return Optional.of(SECRET_KEY);
            }

            public boolean createBucket() {
                return true;
            }

            public int concurrency() {
                return 16;
            }

            public long cacheBytes() {
                return cacheBytes;
            }

            public boolean cacheWritten() {
                return cacheBytes > 0;
            }

            public Duration connectionMaxIdle() {
                return Duration.ofSeconds(30);
            }

            public Duration orphanGrace() {
                return Duration.ofMinutes(10);
            }

            public Duration sweepEvery() {
                return Duration.ofHours(1);
            }
        };
    }

    @Override
    public Map<String, String> start() {
        return config();
    }

    @Override
    public void stop() {
        // shared by every test of the JVM
    }
}
