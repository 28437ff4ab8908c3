package io.jobmon.metrics.security;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import io.quarkus.oidc.AccessTokenCredential;
import io.quarkus.oidc.runtime.OidcUtils;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.SecurityIdentityAugmentor;
import io.quarkus.security.identity.request.TokenAuthenticationRequest;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.quarkus.vertx.http.runtime.security.HttpSecurityUtils;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * A bearer token that quarkus-oidc verified (signature, issuer, audience, expiry) is taken again, until its
 * {@code exp}, as the identity OIDC made of it, without parsing and verifying it again: kept by the SHA-256 of the
 * whole token (any other byte, another token), at most {@link #MAX} tokens (ADR 0055). As an identity provider ahead of
 * OIDC's it answers the tokens it holds and passes the others on (a null identity); as the first augmentor it keeps
 * what OIDC answered, before the other augmentors, which run on a kept identity again as on a new one.
 */
@ApplicationScoped
public class VerifiedTokens implements IdentityProvider<TokenAuthenticationRequest>, SecurityIdentityAugmentor {

    /** Ahead of OIDC's identity provider (1001, the default) and of every augmentor. */
    static final int PRIORITY = 1_000_000;
    /** Tokens kept at most (a few hundred bytes of claims each). */
    static final int MAX = 10_000;

    private record Kept(SecurityIdentity identity, long expMs) {
    }

    private final LongSupplier clock = System::currentTimeMillis;
    private final Cache<String, Kept> kept = Caffeine.newBuilder().maximumSize(MAX).expireAfter(new Expiry<String, Kept>() {
        @Override
        public long expireAfterCreate(String key, Kept k, long now) {
            return TimeUnit.MILLISECONDS.toNanos(Math.max(0, k.expMs() - clock.getAsLong()));
        }

        @Override
        public long expireAfterUpdate(String key, Kept k, long now, long current) {
            return current;
        }

        @Override
        public long expireAfterRead(String key, Kept k, long now, long current) {
            return current;
        }
    }).build();

    @Override
    public Class<TokenAuthenticationRequest> getRequestType() {
        return TokenAuthenticationRequest.class;
    }

    @Override
    public int priority() {
        return PRIORITY;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(TokenAuthenticationRequest request, AuthenticationRequestContext context) {
        Kept k = kept.getIfPresent(key(request.getToken().getToken()));
        if (k == null || clock.getAsLong() >= k.expMs()) {
            return Uni.createFrom().nullItem(); // OIDC's provider verifies it
        }
        // the kept identity with this request's routing context (OIDC sets it per request)
        QuarkusSecurityIdentity.Builder b = QuarkusSecurityIdentity.builder(k.identity());
        RoutingContext rc = HttpSecurityUtils.getRoutingContextAttribute(request);
        if (rc != null) {
            OidcUtils.setRoutingContextAttribute(b, rc);
            OidcUtils.setBlockingApiAttribute(b, rc);
        }
        return Uni.createFrom().item(b.build());
    }

    @Override
    public Uni<SecurityIdentity> augment(SecurityIdentity identity, AuthenticationRequestContext context) {
        AccessTokenCredential token = identity.getCredential(AccessTokenCredential.class);
        if (!identity.isAnonymous() && token != null && token.getToken() != null
                && identity.getPrincipal() instanceof JsonWebToken jwt && jwt.getExpirationTime() > 0) {
            long expMs = jwt.getExpirationTime() * 1000;
            if (expMs > clock.getAsLong()) {
                kept.asMap().putIfAbsent(key(token.getToken()), new Kept(identity, expMs));
            }
        }
        return Uni.createFrom().item(identity);
    }

    /** Whether this token is held (tests). */
    boolean holds(String token) {
        return kept.getIfPresent(key(token)) != null;
    }

    static String key(String token) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
