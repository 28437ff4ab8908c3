package io.jobmon.sim.api;

import io.fabric8.kubernetes.client.VersionInfo;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.internal.MockDispatcher;
import io.fabric8.mockwebserver.internal.SimpleRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;

/**
 * The sim's Kubernetes API: fabric8's mock server in CRUD mode (plain HTTP) with the {@link SimCrudDispatcher},
 * answering {@code /version} as a 1.31 server. Every object lives in memory; a restart starts empty.
 */
public final class SimApiServer implements AutoCloseable {

    /** The mock web server logs every request at INFO through java.util.logging: kept to warnings (held: JUL keeps loggers weakly). */
    private static final java.util.logging.Logger QUIET = quiet("io.fabric8.mockwebserver");

    private final KubernetesMockServer server;
    private final SimCrudDispatcher crud;
    private final String host;

    private SimApiServer(KubernetesMockServer server, SimCrudDispatcher crud, String host) {
        this.server = server;
        this.crud = crud;
        this.host = host;
    }

    /** Starts on {@code host:port} (port 0: a free one). */
    public static SimApiServer start(String host, int port) {
        Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
        SimCrudDispatcher crud = new SimCrudDispatcher();
        MockDispatcher expectations = new MockDispatcher(responses);
        Dispatcher dispatcher = new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
                Queue<ServerResponse> q = responses.get(new SimpleRequest(request.method(), request.getPath()));
                return q != null && !q.isEmpty() ? expectations.dispatch(request) : crud.dispatch(request);
            }
        };
        VersionInfo version = new VersionInfo.Builder().withMajor("1").withMinor("31").withGitVersion("v1.31.4")
                .withPlatform("linux/amd64").withGoVersion("go1.22.10").withCompiler("gc").build();
        KubernetesMockServer server = new KubernetesMockServer(new Context(Serialization.jsonMapper()),
                new MockWebServer(), responses, dispatcher, false, version);
        try {
            server.init(InetAddress.getByName(host), port);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot resolve " + host, e);
        }
        return new SimApiServer(server, crud, "0.0.0.0".equals(host) ? "127.0.0.1" : host);
    }

    private static java.util.logging.Logger quiet(String name) {
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger(name);
        logger.setLevel(java.util.logging.Level.WARNING);
        return logger;
    }

    public int port() {
        return server.getPort();
    }

    /** The server URL, e.g. {@code http://127.0.0.1:16443} (the bind address, 127.0.0.1 for 0.0.0.0). */
    public String url() {
        return "http://" + host + ":" + server.getPort();
    }

    /** Where {@code GET /api/v1/nodes/{node}/proxy/metrics/cadvisor} goes (the API server's node proxy). */
    public void kubelets(KubeletProxy proxy) {
        crud.kubelets(proxy);
    }

    SimCrudDispatcher dispatcher() {
        return crud;
    }

    /** Writes a kubeconfig for this server (cluster and context {@code cluster}); returns its text. */
    public String writeKubeconfig(Path file, String cluster, String namespace) {
        String yaml = Kubeconfig.yaml(cluster, url(), namespace);
        try {
            if (file.getParent() != null) {
                Files.createDirectories(file.getParent());
            }
            Files.writeString(file, yaml);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write kubeconfig " + file, e);
        }
        return yaml;
    }

    /** A new client of this server, made from a kubeconfig as the services make theirs. */
    public KubernetesClient newClient(String namespace) {
        Config config = Config.fromKubeconfig("sim", Kubeconfig.yaml("sim", url(), namespace), null);
        return new KubernetesClientBuilder().withConfig(config).build();
    }

    @Override
    public void close() {
        server.destroy();
    }
}
