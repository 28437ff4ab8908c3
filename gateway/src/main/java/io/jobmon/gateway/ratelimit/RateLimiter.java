package io.jobmon.gateway.ratelimit;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import io.jobmon.contracts.http.HttpFilters;
import io.jobmon.contracts.i18n.Text;
import io.jobmon.contracts.problem.Problem;
import io.jobmon.gateway.config.GatewayConfig;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;

/**
 * A token bucket per user (Bucket4j): a user who exceeds it gets 429 with {@code Retry-After}. Buckets live in
 * this gateway instance (forgotten after 10 idle minutes), so with N replicas a user may reach N times the
 * rate; the limit protects the services from one runaway script, it is not a quota.
 */
@ApplicationScoped
public class RateLimiter {

    private final Cache<String, Bucket> buckets = Caffeine.newBuilder()
            .expireAfterAccess(Duration.ofMinutes(10)).maximumSize(100_000).build();
    private final Bandwidth limit;

    public RateLimiter(GatewayConfig config) {
        GatewayConfig.RateLimit rl = config.rateLimit();
        this.limit = Bandwidth.builder().capacity(rl.burst())
                .refillGreedy(rl.refill(), rl.period()).build();
    }

    /** Takes one token for the caller, or answers 429 and returns false. */
    public boolean tryAcquire(RoutingContext rc) {
        String user = rc.user() instanceof QuarkusHttpUser u && !u.getSecurityIdentity().isAnonymous()
                ? u.getSecurityIdentity().getPrincipal().getName()
                : rc.request().remoteAddress().hostAddress();
        ConsumptionProbe probe = buckets.get(user, k -> Bucket.builder().addLimit(limit).build())
                .tryConsumeAndReturnRemaining(1);
        rc.response().putHeader("X-RateLimit-Remaining", Long.toString(probe.getRemainingTokens()));
        if (probe.isConsumed()) {
            return true;
        }
        long retryAfter = Math.max(1, (probe.getNanosToWaitForRefill() + 999_999_999L) / 1_000_000_000L);
        rc.response().putHeader("Retry-After", Long.toString(retryAfter));
        HttpFilters.writeProblem(rc, Problem.of(429, Text.of("gateway.rate-limited", retryAfter)));
        return false;
    }
}
