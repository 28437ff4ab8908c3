package io.jobmon.jobs.bench;

import com.sun.net.httpserver.HttpServer;
import io.jobmon.testsupport.Tokens;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/** The benchmark's OIDC issuer: just enough (discovery and JWKS) for job-service to verify {@link Tokens}. */
final class BenchIssuer {

    private BenchIssuer() {
    }

    /** An OIDC issuer that vouches for the test key: discovery names the issuer Tokens signs as, and its JWKS. */
    static HttpServer start() throws Exception {
        String jwk;
        try (InputStream in = BenchIssuer.class.getClassLoader().getResourceAsStream("publicKey.jwk")) {
            jwk = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        String base = "http://127.0.0.1:" + server.getAddress().getPort();
        String discovery = "{\"issuer\":\"" + Tokens.ISSUER + "\",\"jwks_uri\":\"" + base + "/jwks\","
                + "\"token_endpoint\":\"" + base + "/token\",\"authorization_endpoint\":\"" + base + "/auth\"}";
        String jwks = "{\"keys\":[" + jwk + "]}";
        server.createContext("/.well-known/openid-configuration", ex -> respond(ex, discovery));
        server.createContext("/jwks", ex -> respond(ex, jwks));
        server.start();
        return server;
    }

    private static void respond(com.sun.net.httpserver.HttpExchange ex, String body) throws java.io.IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", "application/json");
        ex.sendResponseHeaders(200, bytes.length);
        ex.getResponseBody().write(bytes);
        ex.close();
    }

}
