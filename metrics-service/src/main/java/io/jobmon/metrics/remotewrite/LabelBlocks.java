package io.jobmon.metrics.remotewrite;

import io.jobmon.contracts.events.MetricLabels;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
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

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final ConcurrentHashMap<Block, Labels> blocks = new ConcurrentHashMap<>();
    private final int capacity;

    LabelBlocks(int capacity) {
        this.capacity = capacity;
    }

    /** The labels of these label bytes when read before, else null. */
    Labels get(Block probe) {
        return blocks.get(probe);
    }

    /** Keeps the labels read from the probe's bytes (copied: the request's buffer is not kept). */
    void put(Block probe, Labels labels) {
        if (blocks.size() >= capacity) {
            blocks.clear();
        }
        blocks.put(probe.copy(), labels);
    }

    int size() {
        return blocks.size();
    }

    /** A range of bytes with its hash; a probe over a request's buffer or a kept copy. */
    static final class Block {
        private final byte[] bytes;
        private final int from;
        private final int length;
        private final int hash;

        Block(byte[] bytes, int from, int length) {
            this.bytes = bytes;
            this.from = from;
            this.length = length;
            this.hash = hash(bytes, from, length);
        }

        private Block(byte[] bytes, int hash) {
            this.bytes = bytes;
            this.from = 0;
            this.length = bytes.length;
            this.hash = hash;
        }

        Block copy() {
            return new Block(Arrays.copyOfRange(bytes, from, from + length), hash);
        }

        /** Eight bytes at a step (a label block is a few hundred bytes): multiply-xor, then the tail bytes. */
        static int hash(byte[] b, int from, int length) {
            long h = length;
            int i = from;
            int end = from + length;
            for (; i + 8 <= end; i += 8) {
                h = (h ^ (long) LONGS.get(b, i)) * 0x9E3779B97F4A7C15L;
            }
            for (; i < end; i++) {
                h = (h ^ b[i]) * 0x100000001B3L;
            }
            return (int) (h ^ (h >>> 32));
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Block k && k.hash == hash && k.length == length
                    && Arrays.equals(bytes, from, from + length, k.bytes, k.from, k.from + k.length);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }
}
