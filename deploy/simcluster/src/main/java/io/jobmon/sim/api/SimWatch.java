package io.jobmon.sim.api;

import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.util.function.Consumer;

/**
 * One open watch: its selector (path, namespace, label and field requirements as the mock server parses them) and
 * its WebSocket. Messages are watch events in the API server's form, {@code {"type":..,"object":..}}.
 */
final class SimWatch extends WebSocketListener {

    private final AttributeSet selector;
    private final Consumer<SimWatch> onOpen;
    private final Consumer<SimWatch> onGone;
    private volatile WebSocket socket;

    SimWatch(AttributeSet selector, Consumer<SimWatch> onOpen, Consumer<SimWatch> onGone) {
        this.selector = selector;
        this.onOpen = onOpen;
        this.onGone = onGone;
    }

    /** Whether an object with these attributes is one this watch sees. */
    boolean sees(AttributeSet object) {
        return object != null && object.matches(selector);
    }

    void send(String type, String objectJson) {
        WebSocket s = socket;
        if (s != null) {
            s.send("{\"type\":\"" + type + "\",\"object\":" + objectJson + "}");
        }
    }

    @Override
    public void onOpen(WebSocket webSocket, Response response) {
        socket = webSocket;
        onOpen.accept(this);
    }

    @Override
    public void onClosing(WebSocket webSocket, int code, String reason) {
        webSocket.close(code, reason);
    }

    @Override
    public void onClosed(WebSocket webSocket, int code, String reason) {
        socket = null;
        onGone.accept(this);
    }

    @Override
    public void onFailure(WebSocket webSocket, Throwable t, Response response) {
        socket = null;
        onGone.accept(this);
    }
}
