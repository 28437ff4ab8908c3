package io.jobmon.logs.s3;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.util.Map;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
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

    /** Starts the server once; @return its endpoint. */
    public static synchronized String endpoint() {
        if (proxy == null) {
            try {
                int port;
                try (ServerSocket s = new ServerSocket(0)) {
                    port = s.getLocalPort();
                }
                S3Proxy p = S3Proxy.builder().blobStore(new TransientNio2BlobStore())
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
        return Map.of("jobmon.logs.chunk-store", "s3",
                "jobmon.logs.s3.endpoint", endpoint(),
                "jobmon.logs.s3.bucket", BUCKET,
                "jobmon.logs.s3.access-key", ACCESS_KEY,
                "jobmon.logs.s3.secret-key", SECRET_KEY,
                "jobmon.logs.s3.create-bucket", "true");
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
