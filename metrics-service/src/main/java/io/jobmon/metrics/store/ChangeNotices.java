package io.jobmon.metrics.store;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * What changed in the tables charts read, heard from PostgreSQL ({@code LISTEN metrics_changes}; the triggers of
 * {@code V4__change_notices.sql} send a token such as {@code job:<id>} or {@code head:<node>} when a change commits,
 * whichever replica made it). A replica that keeps a read in memory notes {@link #seq()} before reading and may use
 * the result while {@link #changedSince} says none of the tokens it depends on was heard after that. While this
 * replica is not listening (starting, connection lost), everything counts as changed, and whatever was read before
 * the connection came back does too: a notice lost meanwhile cannot leave a stale read in use
 * (docs/adr/0008-replica-caches.md).
 */
@ApplicationScoped
public class ChangeNotices {

    private static final Logger LOG = Logger.getLogger(ChangeNotices.class);
    static final String CHANNEL = "metrics_changes";
    /** Tokens remembered; past this, all are forgotten at once and every earlier read counts as changed. */
    static final int MAX_TOKENS = 200_000;

    private final AtomicLong seq = new AtomicLong();
    private final ConcurrentHashMap<String, Long> heardAt = new ConcurrentHashMap<>();
    /** Reads that began before this sequence are suspect (a reconnect, a forgotten token, 'all'). */
    private volatile long floor = Long.MAX_VALUE;
    private volatile boolean listening;
    private volatile boolean stopped;

    private final Vertx vertx;
    private final PgConnectOptions options;

    public ChangeNotices(Vertx vertx, @ConfigProperty(name = "quarkus.datasource.reactive.url") String url,
            @ConfigProperty(name = "quarkus.datasource.username") String user,
            @ConfigProperty(name = "quarkus.datasource.password") String password) {
        this.vertx = vertx;
        this.options = PgConnectOptions.fromUri(url).setUser(user).setPassword(password);
    }

    void start(@Observes StartupEvent e) {
        connect();
    }

    void stop(@Observes ShutdownEvent e) {
        stopped = true;
    }

    /** The sequence to note before a read whose result will be kept. */
    public long seq() {
        return seq.get();
    }

    /** Whether something a read begun at {@code since} depends on ({@code token}) may have changed after it began. */
    public boolean changedSince(long since, String token) {
        Long at = heardAt.get(token);
        if (at != null && at > since) {
            return true;
        }
        // read after the map: a reset raises the floor before it forgets the tokens
        return !listening || floor > since;
    }

    /** True while notices are heard (a kept read can be trusted only then). */
    public boolean listening() {
        return listening;
    }

    /**
     * A change this replica committed: its own reads see it at once, without waiting for the notice (which comes
     * too, and changes nothing more).
     */
    public void wrote(String token) {
        heard(token);
    }

    /** A notice's payload: one token, or {@code all}. */
    void heard(String token) {
        long s = seq.incrementAndGet();
        if ("all".equals(token) || heardAt.size() >= MAX_TOKENS) {
            floor = s;
            heardAt.clear();
            return;
        }
        heardAt.put(token, s);
    }

    private void connect() {
        if (stopped) {
            return;
        }
        PgConnection.connect(vertx, options).onSuccess(conn -> {
            conn.notificationHandler(n -> heard(n.getPayload()));
            conn.closeHandler(v -> {
                listening = false;
                if (!stopped) {
                    LOG.warn("lost the connection that hears change notices; charts read the database until it is back");
                    retry();
                }
            });
            conn.query("LISTEN " + CHANNEL).execute().onSuccess(r -> {
                floor = seq.incrementAndGet();
                listening = true;
            }).onFailure(e -> conn.close());
        }).onFailure(e -> retry());
    }

    private void retry() {
        vertx.setTimer(1000, id -> connect());
    }
}
