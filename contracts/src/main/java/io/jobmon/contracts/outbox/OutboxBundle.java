package io.jobmon.contracts.outbox;

import java.util.ArrayList;
import java.util.List;

/**
 * Several records of one topic in one outbox row ({@link Outbox#appendBundle}, ADR 0058): a writer that appends
 * many records per transaction inserts and deletes one row instead of one per record. The row's key is
 * {@link #KEY}, so that bundles of a topic keep their order among themselves as a key's records do; its payload the
 * records, in order, each as {@code <key length>:<key><payload length>:<payload>} (lengths in chars, -1 for null).
 * The outbox sends a bundle's records in order and deletes the row once the broker acknowledged all of them.
 */
public final class OutboxBundle {

    /** The record key of a bundle row: no record of the suite has it (a control character leads). */
    public static final String KEY = "\u001fjobmon.outbox.bundle";

    private OutboxBundle() {
    }

    static String encode(List<String> keys, List<String> payloads) {
        StringBuilder s = new StringBuilder(payloads.stream().mapToInt(p -> p == null ? 4 : p.length() + 48).sum());
        for (int i = 0; i < keys.size(); i++) {
            part(s, keys.get(i));
            part(s, payloads.get(i));
        }
        return s.toString();
    }

    private static void part(StringBuilder s, String value) {
        if (value == null) {
            s.append("-1:");
        } else {
            s.append(value.length()).append(':').append(value);
        }
    }

    /** The records of a row: a bundle's, each with the row's identity and revision; any other row as it is. */
    static List<OutboxEntry> records(OutboxEntry row) {
        if (!KEY.equals(row.key())) {
            return List.of(row);
        }
        List<OutboxEntry> out = new ArrayList<>();
        String s = row.payload();
        int[] at = {0};
        while (at[0] < s.length()) {
            String key = next(s, at);
            String payload = next(s, at);
            out.add(new OutboxEntry(row.id(), row.topic(), key, payload, row.revision()));
        }
        return out;
    }

    private static String next(String s, int[] at) {
        int colon = s.indexOf(':', at[0]);
        int length = Integer.parseInt(s, at[0], colon, 10);
        if (length < 0) {
            at[0] = colon + 1;
            return null;
        }
        at[0] = colon + 1 + length;
        return s.substring(colon + 1, at[0]);
    }
}
