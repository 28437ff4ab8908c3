package io.jobmon.sim.logs;

import java.time.Instant;

/** Where the sim's log lines go: container lines and node journal lines, as a log shipper would send them. */
public interface LogSink extends AutoCloseable {

    /** A line a container wrote, {@code stream} {@code stdout} or {@code stderr}. */
    void container(ContainerRef c, Instant time, String stream, String line);

    /** A line of a node's journal (kernel, kubelet, containerd). */
    void journal(JournalRef j, Instant time, String message);

    @Override
    default void close() {
    }

    /** No shipper: the lines are dropped (the sim runs without Kafka). */
    LogSink NONE = new LogSink() {
        @Override
        public void container(ContainerRef c, Instant time, String stream, String line) {
        }

        @Override
        public void journal(JournalRef j, Instant time, String message) {
        }
    };
}
