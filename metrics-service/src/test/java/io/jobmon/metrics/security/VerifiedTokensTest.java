package io.jobmon.metrics.security;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jobmon.testsupport.KafkaTestResource;
import io.jobmon.testsupport.PostgresTestResource;
import io.jobmon.testsupport.Tokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.oidc.server.OidcWiremockTestResource;
import jakarta.inject.Inject;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A verified token is kept until its expiry and answered as its own caller; any other token is verified (ADR 0055). */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(OidcWiremockTestResource.class)
class VerifiedTokensTest {

    @Inject
    VerifiedTokens tokens;

    private static int status(String token, String path) {
        return given().auth().oauth2(token).get(path).then().extract().statusCode();
    }

    @Test
    void aKeptTokenIsAnsweredAsItsOwnCallerAndAChangedOneIsVerifiedAndRefused() {
        String admin = Tokens.admin();
        String alice = Tokens.alice();
        for (int i = 0; i < 2; i++) {
            // the second time from memory: still the admin's roles and the user's, each its own
            assertTrue(status(admin, "/api/v1/metrics/targets") == 200, "admin, call " + i);
            assertTrue(status(alice, "/api/v1/metrics/targets") == 403, "a user, call " + i);
            assertTrue(status(alice, "/api/v1/metrics/catalogue") == 200);
        }
        assertTrue(tokens.holds(admin) && tokens.holds(alice));
        int dot = alice.lastIndexOf('.');
        String signature = alice.substring(dot + 1);
        String forged = alice.substring(0, dot + 1) + (signature.charAt(0) == 'A' ? 'B' : 'A') + signature.substring(1);
        assertTrue(status(forged, "/api/v1/metrics/catalogue") == 401, "another signature is verified, and refused");
        assertFalse(tokens.holds(forged));
    }

    @Test
    void aKeptTokenIsRefusedOnceItExpired() {
        String brief = Tokens.user("brief").roles("user").expiresIn(Duration.ofSeconds(3)).get();
        assertTrue(status(brief, "/api/v1/metrics/catalogue") == 200);
        assertTrue(tokens.holds(brief));
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(250))
                .until(() -> status(brief, "/api/v1/metrics/catalogue") == 401);
        assertFalse(tokens.holds(brief));
    }
}
