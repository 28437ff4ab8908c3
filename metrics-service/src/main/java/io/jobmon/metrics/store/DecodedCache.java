package io.jobmon.metrics.store;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.jobmon.metrics.config.MetricsConfig;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Decoded blocks kept between reads, so that a chart shown again (or refreshed) decodes only what changed. Items
 * live in groups (a node's head blocks; one series' chunks of one table), each under its position (block id or chunk
 * start) with the version it was decoded from (a chunk row's {@code xmin}; head blocks never change). A reader sends
 * the positions and versions it holds with its query, and the database leaves those bodies out. Bounded by weight
 * (least recently used groups go first); every replica has its own, and a missing item only costs a decode.
 */
@ApplicationScoped
public class DecodedCache {

    /**
     * One decoded block: its version, where it lies ({@code at}: a head block's window, a chunk's start), the decoded
     * value and what it weighs.
     */
    public record Item(long version, long at, Object value, long bytes) {
    }

    private final Cache<String, Map<Long, Item>> groups;

    public DecodedCache(MetricsConfig config) {
        groups = Caffeine.newBuilder().maximumWeight(config.storage().readCacheMegabytes() * 1024L)
                .weigher((String k, Map<Long, Item> m) -> {
                    long bytes = 64;
                    for (Item i : m.values()) {
                        bytes += i.bytes();
                    }
                    return (int) Math.min(Integer.MAX_VALUE, bytes / 1024 + 1);
                }).build();
    }

    /** The group's items now (an unchanging snapshot: a reader keeps using it while others update the group). */
    public Map<Long, Item> snapshot(String group) {
        Map<Long, Item> m = groups.getIfPresent(group);
        return m == null ? Map.of() : m;
    }

    /**
     * Records what a read of a group found lying in [from, to): the items decoded now are added, and the items of
     * that range the read did not see any more ({@code seen} lacks them: compacted, dropped) are forgotten.
     */
    public void update(String group, long from, long to, Map<Long, Item> decoded, Set<Long> seen) {
        groups.asMap().compute(group, (k, old) -> {
            Map<Long, Item> next = new HashMap<>();
            if (old != null) {
                old.forEach((pos, item) -> {
                    if (item.at() < from || item.at() >= to || seen.contains(pos)) {
                        next.put(pos, item);
                    }
                });
            }
            next.putAll(decoded);
            return next.isEmpty() ? null : Map.copyOf(next);
        });
    }

    /** Forgets everything (tests). */
    public void clear() {
        groups.invalidateAll();
    }
}
