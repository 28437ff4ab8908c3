package io.jobmon.logs.follow;

import io.vertx.ext.web.RoutingContext;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * One follow request's place in the per-user limit, from its first moment: the close, exception and end handlers are
 * set before any work of the follow starts, so a client that goes at any point (before the limit is checked, during
 * the tail, while following) ends its session and gives the place back, exactly once.
 */
final class FollowSlot {

    private final AtomicBoolean gone = new AtomicBoolean();
    private final AtomicReference<UUID> held = new AtomicReference<>();
    private final Consumer<UUID> release;
    private volatile FollowSession session;

    FollowSlot(RoutingContext rc, Consumer<UUID> release) {
        this.release = release;
        rc.response().closeHandler(v -> end());
        rc.response().exceptionHandler(e -> end());
        rc.addEndHandler(ar -> end());
        if (rc.response().closed() || rc.response().ended()) {
            end();
        }
    }

    /** Takes the limiter's session; gives it back at once when the client has already gone. */
    void hold(UUID id) {
        held.set(id);
        if (gone.get()) {
            giveBack();
        }
    }

    /** The session to stop when the client goes (stopped at once if it went already). */
    void attach(FollowSession s) {
        session = s;
        if (gone.get()) {
            s.stop();
        }
    }

    boolean gone() {
        return gone.get();
    }

    /** The follow is over: the client went, the response ended, or the follow failed. */
    void end() {
        if (gone.compareAndSet(false, true)) {
            FollowSession s = session;
            if (s != null) {
                s.stop();
            }
        }
        giveBack();
    }

    private void giveBack() {
        UUID id = held.getAndSet(null);
        if (id != null) {
            release.accept(id);
        }
    }
}
