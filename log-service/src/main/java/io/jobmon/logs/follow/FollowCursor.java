package io.jobmon.logs.follow;

import java.util.Map;
import java.util.TreeMap;

/**
 * Where a follow stands: per Kafka partition, the last delivered line's offset and index in its record. A
 * partition's lines are stored in offset order (one consumer per partition at a time, its transactions serialised
 * by the stored offset's row lock), so "every line beyond this vector" is exact: nothing lost, nothing repeated,
 * on any replica. Its text ({@code p:o:s,...}, base 36) is the SSE event id.
 */
public final class FollowCursor {

    private final Map<Integer, long[]> at;

    public FollowCursor(Map<Integer, long[]> at) {
        this.at = new TreeMap<>(at);
    }

    public static FollowCursor empty() {
        return new FollowCursor(Map.of());
    }

    /** Whether the line at (partition, offset, sub) comes after the cursor. */
    public boolean after(int partition, long offset, int sub) {
        long[] a = at.get(partition);
        return a == null || offset > a[0] || offset == a[0] && sub > a[1];
    }

    public void advance(int partition, long offset, int sub) {
        at.put(partition, new long[] {offset, sub});
    }

    public Map<Integer, long[]> positions() {
        return at;
    }

    public String id() {
        StringBuilder sb = new StringBuilder();
        at.forEach((p, a) -> {
            if (sb.length() > 0) {
                sb.append(',');
            }
            sb.append(Integer.toString(p, 36)).append(':').append(Long.toString(a[0], 36)).append(':')
                    .append(Long.toString(a[1], 36));
        });
        return sb.length() == 0 ? "-" : sb.toString();
    }

    /** @return null when {@code id} is not one of ours (the follow then starts afresh) */
    public static FollowCursor parse(String id) {
        if (id == null || id.isBlank()) {
            return null;
        }
        if (id.equals("-")) {
            return empty();
        }
        if (id.length() > 4096) {
            return null;
        }
        Map<Integer, long[]> at = new TreeMap<>();
        try {
            for (String part : id.split(",")) {
                String[] f = part.split(":");
                if (f.length != 3) {
                    return null;
                }
                at.put(Integer.parseInt(f[0], 36), new long[] {Long.parseLong(f[1], 36), Long.parseLong(f[2], 36)});
            }
        } catch (NumberFormatException e) {
            return null;
        }
        return new FollowCursor(at);
    }
}
