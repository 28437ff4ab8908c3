package io.jobmon.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import org.jose4j.jwk.RsaJsonWebKey;
import org.jose4j.jwk.RsaJwkGenerator;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.lang.JoseException;

import java.net.http.HttpResponse;
import java.security.PrivateKey;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * An RSA key the test adds to the running Keycloak's {@code jobmon} realm (admin API, lowest priority, so
 * Keycloak keeps signing its own tokens with its own key). The realm's JWKS then publishes it, and tokens
 * the test signs with it differ from a good token in exactly the one way a test wants: a wrong issuer or
 * an expiry in the past, never the signature. Removed again at the end.
 */
final class RealmTestKey {

    static final String NAME = "e2e-test-key";

    private final String keycloak;
    private final String adminUser;
    private final String adminPassword;
    private final String componentId;
    final RsaJsonWebKey jwk;
    final String kid;

    private RealmTestKey(String keycloak, String adminUser, String adminPassword, String componentId, RsaJsonWebKey jwk,
            String kid) {
        this.keycloak = keycloak;
        this.adminUser = adminUser;
        this.adminPassword = adminPassword;
        this.componentId = componentId;
        this.jwk = jwk;
        this.kid = kid;
    }

    /** Admin tokens of the master realm live 60 s: one per use. */
    private static String adminToken(String keycloak, String adminUser, String adminPassword) {
        HttpResponse<String> tokenResponse = Http.postForm(keycloak + "/realms/master/protocol/openid-connect/token",
                Map.of("grant_type", "password", "client_id", "admin-cli", "username", adminUser, "password", adminPassword));
        if (tokenResponse.statusCode() != 200) {
            throw new AssertionError("Keycloak admin login failed: " + tokenResponse.body());
        }
        return Http.json(tokenResponse).get("access_token").asText();
    }

    static RealmTestKey register(String keycloak, String adminUser, String adminPassword) throws JoseException {
        String admin = adminToken(keycloak, adminUser, adminPassword);
        String realmUrl = keycloak + "/admin/realms/jobmon";
        String realmId = Http.json(Http.get(realmUrl, admin)).get("id").asText();

        // Keys left by an interrupted earlier run.
        for (JsonNode c : Http.json(Http.get(realmUrl + "/components?type=org.keycloak.keys.KeyProvider&name=" + NAME, admin))) {
            Http.sendJson("DELETE", realmUrl + "/components/" + c.get("id").asText(), admin, null);
        }

        RsaJsonWebKey jwk = RsaJwkGenerator.generateJwk(2048);
        PrivateKey privateKey = jwk.getPrivateKey();
        Map<String, Object> component = Map.of(
                "name", NAME,
                "providerId", "rsa",
                "providerType", "org.keycloak.keys.KeyProvider",
                "parentId", realmId,
                "config", Map.of(
                        "priority", List.of("1"),
                        "enabled", List.of("true"),
                        "active", List.of("true"),
                        "algorithm", List.of("RS256"),
                        "privateKey", List.of(Base64.getEncoder().encodeToString(privateKey.getEncoded()))));
        HttpResponse<String> created = Http.sendJson("POST", realmUrl + "/components", admin, component);
        if (created.statusCode() != 201) {
            throw new AssertionError("could not add a test key to the realm: HTTP " + created.statusCode() + " " + created.body());
        }
        String location = created.headers().firstValue("Location").orElseThrow();
        String componentId = location.substring(location.lastIndexOf('/') + 1);

        String kid = null;
        for (JsonNode k : Http.json(Http.get(realmUrl + "/keys", admin)).get("keys")) {
            if (componentId.equals(k.path("providerId").asText()) && "RS256".equals(k.path("algorithm").asText())) {
                kid = k.get("kid").asText();
            }
        }
        if (kid == null) {
            throw new AssertionError("the test key is not among the realm's keys");
        }
        jwk.setKeyId(kid);
        return new RealmTestKey(keycloak, adminUser, adminPassword, componentId, jwk, kid);
    }

    /** Signs the claims with this realm key. */
    String sign(JwtClaims claims) throws JoseException {
        return sign(claims, jwk.getPrivateKey(), kid);
    }

    static String sign(JwtClaims claims, PrivateKey key, String kid) throws JoseException {
        JsonWebSignature jws = new JsonWebSignature();
        jws.setPayload(claims.toJson());
        jws.setKey(key);
        jws.setKeyIdHeaderValue(kid);
        jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.RSA_USING_SHA256);
        jws.setHeader("typ", "JWT");
        return jws.getCompactSerialization();
    }

    void unregister() {
        Http.sendJson("DELETE", keycloak + "/admin/realms/jobmon/components/" + componentId,
                adminToken(keycloak, adminUser, adminPassword), null);
    }
}
