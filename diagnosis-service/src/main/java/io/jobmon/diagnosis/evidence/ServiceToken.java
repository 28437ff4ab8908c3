package io.jobmon.diagnosis.evidence;

import io.jobmon.diagnosis.config.DiagnosisConfig;
import io.quarkus.oidc.client.OidcClient;
import io.quarkus.oidc.client.Tokens;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import java.time.Duration;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * The service's own bearer token for diagnoses nobody asked for (a job failed, periodic fault handling): a
 * client-credentials token of the {@code quarkus.oidc-client} account, cached until it is about to expire.
 * Without a configured account ({@code jobmon.diagnosis.automatic.service-account=false}) there is none, and an
 * automatic diagnosis uses only what the service knows from Kafka.
 */
@ApplicationScoped
public class ServiceToken {

    private static final Logger LOG = Logger.getLogger(ServiceToken.class);

    private final boolean enabled;
    private final Instance<OidcClient> client;
    private volatile Tokens tokens;

    public ServiceToken(DiagnosisConfig config, Instance<OidcClient> client) {
        this.enabled = config.automatic().serviceAccount();
        this.client = client;
    }

    /** {@code Bearer <token>}, or empty when no account is configured or the provider cannot be reached. */
    public Optional<String> authorization() {
        if (!enabled) {
            return Optional.empty();
        }
        try {
            Tokens current = tokens;
            if (current == null || current.isAccessTokenExpired() || current.isAccessTokenWithinRefreshInterval()) {
                // A new client-credentials grant rather than a refresh: not every provider issues refresh tokens
                // for it, and the grant is as cheap.
                current = client.get().getTokens().await().atMost(Duration.ofSeconds(10));
                tokens = current;
            }
            return Optional.of("Bearer " + current.getAccessToken());
        } catch (RuntimeException e) {
            LOG.warnf("no service token (automatic diagnoses use local evidence only): %s", e.getMessage());
            return Optional.empty();
        }
    }
}
