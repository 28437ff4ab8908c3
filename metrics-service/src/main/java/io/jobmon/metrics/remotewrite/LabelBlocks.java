package io.jobmon.metrics.remotewrite;

import io.jobmon.contracts.events.MetricLabels;
import io.jobmon.metrics.ingest.ByteKey;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A series' labels as remote-write sends them again with every request: the bytes of its label fields → the labels
 * read once (name, sorted pairs, node). A sender repeats a series' label bytes exactly, so a request's series are
 * found by one hash and one comparison of those bytes instead of a lookup per label string, and every request's
 * series of one identity share one {@link MetricLabels} and its strings: the binary record's string index and the
 * series cache then compare identical instances. Bounded: emptied when it would hold more than {@code capacity}
 * blocks (a change of every series' labels, e.g. a relabelling, refills it).
 */
final class LabelBlocks {

    /** A series' labels read from its label fields. */
    record Labels(String name, MetricLabels labels, String[] pairs, String node, List<String> nodeLabels) {
    }

    private final ConcurrentHashMap<ByteKey, Labels> blocks = new ConcurrentHashMap<>();
    private final int capacity;

    LabelBlocks(int capacity) {
        this.capacity = capacity;
    }

    /** The labels of these label bytes when read before, else null. */
    Labels get(ByteKey probe) {
        return blocks.get(probe);
    }

    /** Keeps the labels read from the probe's bytes (copied: the request's buffer is not kept). */
    void put(ByteKey probe, Labels labels) {
        if (blocks.size() >= capacity) {
            blocks.clear();
        }
        blocks.put(probe.copy(), labels);
    }

    int size() {
        return blocks.size();
    }
}
