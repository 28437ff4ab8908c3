package io.jobmon.testsupport;

import io.smallrye.jwt.build.Jwt;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Mints access tokens that the OIDC WireMock server ({@code OidcWiremockTestResource}) vouches for, with the
 * claims a Keycloak token of the {@code jobmon} realm carries: {@code preferred_username}, {@code tenant},
 * {@code groups}, {@code realm_access.roles} and {@code azp} (the client).
 *
 * <pre>String token = Tokens.user("alice").tenant("t1").groups("project-nlp").get();</pre>
 */
public final class Tokens {

    /** The issuer the WireMock server announces. */
    public static final String ISSUER = "https://server.example.com";
    /** The audience the services require ({@code quarkus.oidc.token.audience}). */
    public static final String AUDIENCE = "jobmon";

    private final String user;
    private String tenant = "t1";
    private Set<String> groups = Set.of();
    private Set<String> roles = Set.of("user");
    private Duration expiresIn = Duration.ofHours(1);
    private String audience = AUDIENCE;
    private String client = "jobmon-ui";

    private Tokens(String user) {
        this.user = user;
    }

    public static Tokens user(String user) {
        return new Tokens(user);
    }

    /** alice, bob: project-nlp in t1; carol: project-cv in t1; dave: t2; admin: admin of t1 — as in the local realm. */
    public static String alice() {
        return user("alice").groups("project-nlp").get();
    }

    public static String bob() {
        return user("bob").groups("project-nlp").get();
    }

    public static String carol() {
        return user("carol").groups("project-cv").get();
    }

    public static String dave() {
        return user("dave").tenant("t2").get();
    }

    public static String admin() {
        return user("admin").roles("admin", "user").get();
    }

    /**
     * diagnosis-service's own token, as Keycloak issues it for the client-credentials grant of the confidential
     * client {@code jobmon-diagnosis}: its service account, realm role {@code service}, no tenant, no groups.
     */
    public static String service() {
        return user("service-account-jobmon-diagnosis").client("jobmon-diagnosis").tenant(null).roles("service").get();
    }

    public Tokens tenant(String tenant) {
        this.tenant = tenant;
        return this;
    }

    public Tokens groups(String... groups) {
        this.groups = Set.of(groups);
        return this;
    }

    public Tokens roles(String... roles) {
        this.roles = Set.of(roles);
        return this;
    }

    /** A token issued for another audience (another client of the realm). */
    public Tokens audience(String audience) {
        this.audience = audience;
        return this;
    }

    /** The client the token was issued to ({@code azp}); {@code jobmon-ui} unless set. */
    public Tokens client(String clientId) {
        this.client = clientId;
        return this;
    }

    public Tokens expiresIn(Duration expiresIn) {
        this.expiresIn = expiresIn;
        return this;
    }

    public String get() {
        var jwt = Jwt.preferredUserName(user)
                .subject(user)
                .issuer(ISSUER)
                .audience(audience)
                .claim("azp", client);
        if (tenant != null) {
            jwt.claim("tenant", tenant);
        }
        return jwt.groups(groups)
                .claim("realm_access", Map.of("roles", List.copyOf(roles)))
                .expiresIn(expiresIn)
                .jws().keyId("1")
                .sign("privateKey.jwk");
    }
}
