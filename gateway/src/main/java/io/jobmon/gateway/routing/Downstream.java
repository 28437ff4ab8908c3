package io.jobmon.gateway.routing;

import java.net.URI;

/** One downstream service: its route name and where it listens. */
public record Downstream(String name, URI uri) {

    public static Downstream of(String name, String url) {
        URI uri = URI.create(url);
        if (uri.getHost() == null || uri.getPort() < 0) {
            throw new IllegalArgumentException("jobmon.gateway.services." + name + " needs host and port: " + url);
        }
        return new Downstream(name, uri);
    }

    public String host() {
        return uri.getHost();
    }

    public int port() {
        return uri.getPort();
    }
}
