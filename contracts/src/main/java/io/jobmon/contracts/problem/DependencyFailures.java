package io.jobmon.contracts.problem;

import java.lang.reflect.Method;
import java.net.ConnectException;
import java.nio.channels.ClosedChannelException;
import java.util.Set;
import java.util.concurrent.TimeoutException;

/**
 * Tells a failure caused by a dependency being away (PostgreSQL down or restarting, the broker unreachable, a
 * pool that cannot get a connection in time) from a bug: the first is a 503 with {@code Retry-After}, the second a
 * 500. Classes are matched by name so that a service without the PostgreSQL or Kafka client can load this.
 */
public final class DependencyFailures {

    /** SQLSTATEs of an unusable connection: class 08, shutdown/restart (57P01-57P03), too many connections. */
    private static final Set<String> UNAVAILABLE_STATES = Set.of("57P01", "57P02", "57P03", "53300", "53400");
    private static final Set<String> UNAVAILABLE_CLASSES = Set.of(
            "io.vertx.sqlclient.ClosedConnectionException",
            "io.vertx.core.impl.NoStackTraceTimeoutException",
            "io.vertx.core.http.impl.NoStackTraceTimeoutException",
            "io.netty.channel.ConnectTimeoutException",
            "io.netty.channel.AbstractChannel$AnnotatedConnectException",
            "io.smallrye.mutiny.TimeoutException",
            "org.apache.kafka.common.errors.TimeoutException",
            "org.apache.kafka.common.errors.NetworkException",
            "org.apache.kafka.common.errors.DisconnectException");

    private DependencyFailures() {
    }

    public static boolean isUnavailable(Throwable failure) {
        int depth = 0;
        for (Throwable e = failure; e != null && depth < 10; e = e.getCause(), depth++) {
            if (e instanceof ConnectException || e instanceof ClosedChannelException || e instanceof TimeoutException
                    || UNAVAILABLE_CLASSES.contains(e.getClass().getName())) {
                return true;
            }
            String state = sqlState(e);
            if (state != null && (state.startsWith("08") || UNAVAILABLE_STATES.contains(state))) {
                return true;
            }
            String msg = e.getMessage();
            if (msg != null && e.getClass().getName().startsWith("io.vertx")
                    && (msg.contains("Connection refused") || msg.contains("Connection reset")
                            || msg.contains("Failed to read any response from the server")
                            || msg.contains("connection is closed") || msg.contains("Connection is closed"))) {
                return true;
            }
            if (e.getCause() == e) {
                break;
            }
        }
        return false;
    }

    private static String sqlState(Throwable e) {
        if (!e.getClass().getName().equals("io.vertx.pgclient.PgException")) {
            return null;
        }
        try {
            Method m = e.getClass().getMethod("getSqlState");
            Object state = m.invoke(e);
            return state == null ? null : state.toString();
        } catch (ReflectiveOperationException ex) {
            return null;
        }
    }
}
