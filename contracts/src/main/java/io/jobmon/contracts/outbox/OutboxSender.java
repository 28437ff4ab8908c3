package io.jobmon.contracts.outbox;

import io.smallrye.mutiny.Uni;
import java.util.List;

/** Sends claimed outbox rows to the broker and says which it acknowledged. */
public interface OutboxSender extends AutoCloseable {

    /**
     * Sends every entry, in order, and waits for the broker.
     *
     * @return the entries the broker acknowledged (never fails: what was not acknowledged is simply absent)
     */
    Uni<List<OutboxEntry>> send(List<OutboxEntry> entries);

    @Override
    void close();
}
