package io.jobmon.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.gateway.routing.Replicas;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Several replicas behind one route: requests go round robin, a replica that refuses connections is passed over. */
class ReplicasTest {

    private static Vertx vertx;
    private static HttpClient client;
    private static int a;
    private static int b;

    @BeforeAll
    static void servers() {
        vertx = Vertx.vertx();
        client = vertx.createHttpClient();
        a = serve("replica-a");
        b = serve("replica-b");
    }

    @AfterAll
    static void close() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @Test
    void requestsAlternateBetweenTheReplicas() {
        Replicas replicas = Replicas.of("logs", "http://127.0.0.1:" + a + ", http://127.0.0.1:" + b);
        List<String> served = answers(replicas, 4);
        assertEquals(2, served.stream().filter("replica-a"::equals).count(), served.toString());
        assertEquals(2, served.stream().filter("replica-b"::equals).count(), served.toString());
        assertTrue(!served.get(0).equals(served.get(1)) && !served.get(2).equals(served.get(3)), served.toString());
    }

    @Test
    void aReplicaThatRefusesConnectionsIsPassedOver() {
        Replicas replicas = Replicas.of("logs", "http://127.0.0.1:" + deadPort() + ",http://127.0.0.1:" + b);
        assertEquals(List.of("replica-b", "replica-b", "replica-b", "replica-b"), answers(replicas, 4));
    }

    @Test
    void whenNoReplicaTakesTheRequestItFails() {
        Replicas replicas = Replicas.of("logs", "http://127.0.0.1:" + deadPort() + ",http://127.0.0.1:" + deadPort());
        assertThrows(CompletionException.class,
                () -> replicas.request(client, 5000).toCompletionStage().toCompletableFuture().join());
    }

    @Test
    void aSingleUrlIsOneReplicaAndAnEmptyListIsRefused() {
        assertEquals(1, Replicas.of("job", "http://localhost:8081").targets().size());
        assertThrows(IllegalArgumentException.class, () -> Replicas.of("job", " , "));
        assertThrows(IllegalArgumentException.class, () -> Replicas.of("job", "localhost"));
    }

    /**
     * Who answered each of {@code n} requests. The chain runs on a Vert.x context, as the gateway's proxy does: started
     * from the test's thread, a response could deliver its body before {@code body()} was asked for (lost: "").
     */
    private static List<String> answers(Replicas replicas, int n) {
        List<String> served = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Promise<String> answer = Promise.promise();
            vertx.runOnContext(v -> replicas.request(client, 5000)
                    .compose(req -> req.setMethod(HttpMethod.GET).setURI("/who").send())
                    .compose(resp -> resp.statusCode() == 200 ? resp.body()
                            : Future.failedFuture("HTTP " + resp.statusCode()))
                    .map(Object::toString)
                    .onComplete(answer));
            served.add(answer.future().toCompletionStage().toCompletableFuture().join());
        }
        return served;
    }

    private static int serve(String name) {
        return vertx.createHttpServer().requestHandler(req -> req.response().end(name))
                .listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().join().actualPort();
    }

    private static int deadPort() {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
