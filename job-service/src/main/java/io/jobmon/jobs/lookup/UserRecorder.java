package io.jobmon.jobs.lookup;

import io.jobmon.contracts.access.Caller;
import io.jobmon.jobs.job.repository.UserRepository;
import io.jobmon.jobs.job.rest.CurrentCaller;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Records every authenticated caller of job-service as a user of their tenant ({@code known_user}), so that the share
 * dialog can suggest them and a share can name only people who exist. A caller is written at most every
 * {@link #AGAIN} per instance (a few writes per user and day); a failure to record never fails the request.
 */
@ApplicationScoped
public class UserRecorder {

    private static final Logger LOG = Logger.getLogger(UserRecorder.class);
    static final Duration AGAIN = Duration.ofMinutes(10);
    private static final int MAX_REMEMBERED = 50_000;

    private final Pool pool;
    private final UserRepository users;
    private final CurrentCaller caller;
    private final Map<String, Long> recorded = new ConcurrentHashMap<>();

    public UserRecorder(Pool pool, UserRepository users, CurrentCaller caller) {
        this.pool = pool;
        this.users = users;
        this.caller = caller;
    }

    @ServerRequestFilter
    public Uni<Void> record() {
        Caller c;
        try {
            c = caller.get();
        } catch (RuntimeException e) {
            return Uni.createFrom().voidItem(); // no token (the security layer answers)
        }
        if (c.tenant() == null || c.user() == null) {
            return Uni.createFrom().voidItem();
        }
        String key = c.tenant() + "/" + c.user() + "/" + c.groups();
        long now = System.nanoTime();
        Long last = recorded.get(key);
        if (last != null && now - last < AGAIN.toNanos()) {
            return Uni.createFrom().voidItem();
        }
        if (recorded.size() > MAX_REMEMBERED) {
            recorded.clear();
        }
        return users.seen(pool, c.tenant(), c.user(), c.groups())
                .invoke(() -> recorded.put(key, now))
                .onFailure().invoke(e -> LOG.debugf("could not record user %s: %s", c.user(), e.getMessage()))
                .onFailure().recoverWithNull().replaceWithVoid();
    }
}
