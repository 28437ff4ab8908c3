package io.jobmon.logs.query;

import io.jobmon.contracts.api.Cursors;
import java.util.List;

/**
 * A line's place in a job's log: its time, then its Kafka position (partition, offset, index in the record). Total
 * and stable: the same line has the same position on every replica and in every later query, so it is the cursor.
 */
public record Position(long time, int partition, long offset, int sub) implements Comparable<Position> {

    private static final String VERSION = "l1";

    @Override
    public int compareTo(Position o) {
        int c = Long.compare(time, o.time);
        if (c != 0) {
            return c;
        }
        c = Integer.compare(partition, o.partition);
        if (c != 0) {
            return c;
        }
        c = Long.compare(offset, o.offset);
        return c != 0 ? c : Integer.compare(sub, o.sub);
    }

    public String cursor() {
        return Cursors.encode(VERSION, Long.toString(time), Integer.toString(partition), Long.toString(offset),
                Integer.toString(sub));
    }

    /** @return null for no cursor; a 400 naming {@code cursor} for one that is not a line's */
    public static Position parse(String cursor) {
        List<String> p = Cursors.decode(cursor, 5);
        if (p == null) {
            return null;
        }
        if (!VERSION.equals(p.get(0))) {
            throw Cursors.invalid();
        }
        try {
            return new Position(Long.parseLong(p.get(1)), Integer.parseInt(p.get(2)), Long.parseLong(p.get(3)),
                    Integer.parseInt(p.get(4)));
        } catch (NumberFormatException e) {
            throw Cursors.invalid();
        }
    }
}
