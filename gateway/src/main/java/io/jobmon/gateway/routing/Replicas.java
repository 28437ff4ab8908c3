package io.jobmon.gateway.routing;

import io.vertx.core.Future;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The replicas of one downstream service ({@code jobmon.gateway.services.<name>} lists their URLs, comma-separated):
 * each request goes to the next one in turn, and a replica that cannot be connected to (stopped, killed) is passed
 * over for the following one, so a request fails only when none of them takes it. A request a replica accepted is
 * never sent again (it may not be idempotent). In Kubernetes the list is the one Service URL, which balances itself.
 */
public final class Replicas {

    private final String name;
    private final List<Downstream> targets;
    private final AtomicInteger next = new AtomicInteger();

    private Replicas(String name, List<Downstream> targets) {
        this.name = name;
        this.targets = targets;
    }

    /** The replicas of route {@code name} from a comma-separated list of base URLs (one URL: a single instance). */
    public static Replicas of(String name, String urls) {
        List<Downstream> targets = Arrays.stream(urls.split(",")).map(String::strip).filter(u -> !u.isEmpty())
                .map(u -> Downstream.of(name, u)).toList();
        if (targets.isEmpty()) {
            throw new IllegalArgumentException("jobmon.gateway.services." + name + " names no URL");
        }
        return new Replicas(name, targets);
    }

    public String name() {
        return name;
    }

    public List<Downstream> targets() {
        return targets;
    }

    /** A request to the next replica that accepts a connection, trying each replica at most once. */
    public Future<HttpClientRequest> request(HttpClient client, long idleTimeoutMs) {
        int start = Math.floorMod(next.getAndIncrement(), targets.size());
        return attempt(client, idleTimeoutMs, start, 0);
    }

    private Future<HttpClientRequest> attempt(HttpClient client, long idleTimeoutMs, int start, int tried) {
        Downstream target = targets.get((start + tried) % targets.size());
        return client.request(new RequestOptions()
                        .setServer(SocketAddress.inetSocketAddress(target.port(), target.host()))
                        .setIdleTimeout(idleTimeoutMs))
                .recover(failure -> tried + 1 < targets.size()
                        ? attempt(client, idleTimeoutMs, start, tried + 1)
                        : Future.failedFuture(failure));
    }
}
