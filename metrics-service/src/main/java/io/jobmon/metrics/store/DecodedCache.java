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
 * <p>
 * A group also says which range its last read saw whole ({@link Group#covers}), and when that read began
 * ({@link ChangeNotices#seq}): while no notice of the node was heard since, the group is that range as stored, and
 * a reader need not ask the database ({@link BlockReads}).
 */
@ApplicationScoped
public class DecodedCache {

    /**
     * One decoded block: its version, where it lies ({@code at}: a head block's window, a chunk's start), the decoded
     * value and what it weighs.
     */
    public record Item(long version, long at, Object value, long bytes) {
    }

    /**
     * A group's items, and the range [coveredFrom, coveredTo) whose items were all there is as of the read that began
     * at {@code seq} (the newest read that updated the group; an older one that finishes later changes nothing).
     */
    public record Group(Map<Long, Item> items, long coveredFrom, long coveredTo, long seq) {
        static final Group EMPTY = new Group(Map.of(), 0, 0, Long.MIN_VALUE);

        public boolean covers(long from, long to) {
            return seq != Long.MIN_VALUE && coveredFrom <= from && to <= coveredTo;
        }
    }

    private final Cache<String, Group> groups;

    public DecodedCache(MetricsConfig config) {
        groups = Caffeine.newBuilder().maximumWeight(config.storage().readCacheMegabytes() * 1024L)
                .weigher((String k, Group g) -> {
                    long bytes = 64;
                    for (Item i : g.items().values()) {
                        bytes += i.bytes();
                    }
                    return (int) Math.min(Integer.MAX_VALUE, bytes / 1024 + 1);
                }).build();
    }

    /** The group now (an unchanging snapshot: a reader keeps using it while others update the group). */
    public Group snapshot(String group) {
        Group g = groups.getIfPresent(group);
        return g == null ? Group.EMPTY : g;
    }

    /**
     * Records what a read of a group, begun at {@code seq}, found lying in [from, to): the items decoded now are
     * added, the items of that range the read did not see any more ({@code seen} lacks them: compacted, dropped) are
     * forgotten, and the range is the group's covered one. Nothing changes when a newer read updated the group.
     */
    public void update(String group, long from, long to, Map<Long, Item> decoded, Set<Long> seen, long seq) {
        groups.asMap().compute(group, (k, old) -> {
            if (old != null && old.seq() > seq) {
                return old;
            }
            Map<Long, Item> next = new HashMap<>();
            if (old != null) {
                old.items().forEach((pos, item) -> {
                    if (item.at() < from || item.at() >= to || seen.contains(pos)) {
                        next.put(pos, item);
                    }
                });
            }
            next.putAll(decoded);
            return new Group(Map.copyOf(next), from, to, seq);
        });
    }

    /** Forgets everything (tests). */
    public void clear() {
        groups.invalidateAll();
    }
}
