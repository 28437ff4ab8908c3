package io.jobmon.events.k8s;

import static io.jobmon.events.k8s.Tokens.expectObject;
import static io.jobmon.events.k8s.Tokens.integer;
import static io.jobmon.events.k8s.Tokens.text;
import static io.jobmon.events.k8s.Tokens.time;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.jobmon.events.k8s.ObjectReader.Bail;
import io.jobmon.events.k8s.ObjectReader.Seen;
import java.io.IOException;
import java.time.Instant;

/** {@link ObjectReader}'s Pod status parts: a condition and a container status with its states. */
final class ContainerStatusReader {

    private ContainerStatusReader() {
    }

    static PodView.Condition condition(JsonParser p, JsonToken t) throws IOException, Bail {
        expectObject(t);
        Seen seen = new Seen();
        String type = null, status = null, reason = null, message = null;
        Instant time = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            switch (field) {
                case "type" -> type = text(p, v, seen, 0);
                case "status" -> status = text(p, v, seen, 1);
                case "reason" -> reason = text(p, v, seen, 2);
                case "message" -> message = text(p, v, seen, 3);
                case "lastTransitionTime" -> time = time(p, v, seen, 4);
                default -> p.skipChildren();
            }
        }
        return new PodView.Condition(type, status, reason, message, time);
    }

    /** A container status; the state's kind by precedence: terminated, running, waiting (as PodParser). */
    static ContainerView container(JsonParser p, JsonToken t, boolean init) throws IOException, Bail {
        expectObject(t);
        Seen seen = new Seen();
        String name = null;
        int restarts = 0;
        State[] states = new State[3]; // terminated, running, waiting
        State last = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            switch (field) {
                case "name" -> name = text(p, v, seen, 0);
                case "restartCount" -> {
                    Integer n = integer(p, v, seen, 1);
                    if (n == null) {
                        throw Bail.INSTANCE; // asInt(0) of a null: not worth reading exactly
                    }
                    restarts = n;
                }
                case "state" -> {
                    seen.once(2);
                    expectObject(v);
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String s = p.currentName();
                        JsonToken sv = p.nextToken();
                        int i = s.equals("terminated") ? 0 : s.equals("running") ? 1 : s.equals("waiting") ? 2 : -1;
                        if (i < 0) {
                            p.skipChildren();
                        } else {
                            seen.once(10 + i);
                            states[i] = state(p, sv);
                        }
                    }
                }
                case "lastState" -> {
                    seen.once(3);
                    expectObject(v);
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String s = p.currentName();
                        JsonToken sv = p.nextToken();
                        if (s.equals("terminated")) {
                            seen.once(4);
                            last = state(p, sv);
                        } else {
                            p.skipChildren();
                        }
                    }
                }
                default -> p.skipChildren();
            }
        }
        int k = states[0] != null ? 0 : states[1] != null ? 1 : states[2] != null ? 2 : -1;
        State s = k < 0 ? State.NONE : states[k];
        State l = last == null ? State.NONE : last;
        return new ContainerView(name, init, k == 0 ? "terminated" : k == 1 ? "running" : k == 2 ? "waiting" : null,
                s.reason, s.message, s.exitCode, s.startedAt, s.finishedAt, restarts, l.reason, l.exitCode, l.finishedAt);
    }

    /** {@code state.<kind>} or {@code lastState.terminated}; a null there reads as an empty state. */
    private record State(String reason, String message, Integer exitCode, Instant startedAt, Instant finishedAt) {
        static final State NONE = new State(null, null, null, null, null);
    }

    private static State state(JsonParser p, JsonToken t) throws IOException, Bail {
        if (t == JsonToken.VALUE_NULL) {
            return State.NONE;
        }
        expectObject(t);
        Seen seen = new Seen();
        String reason = null, message = null;
        Integer exit = null;
        Instant started = null, finished = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            switch (field) {
                case "reason" -> reason = text(p, v, seen, 0);
                case "message" -> message = text(p, v, seen, 1);
                case "exitCode" -> exit = integer(p, v, seen, 2);
                case "startedAt" -> started = time(p, v, seen, 3);
                case "finishedAt" -> finished = time(p, v, seen, 4);
                default -> p.skipChildren();
            }
        }
        return new State(reason, message, exit, started, finished);
    }
}
