package io.jobmon.metrics.ingest;

import io.jobmon.contracts.events.MetricSamplesBinary;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The strings of binary samples records, one instance per text across records (found by their UTF-8 bytes): a
 * node's records name the same metrics, label names and values again and again, so the series cache hashes each
 * string once and compares identical instances ({@link io.jobmon.metrics.store.SeriesKey}). Bounded: emptied when
 * it would hold more than {@link #CAPACITY} strings (pods come and go).
 */
final class RecordStrings implements MetricSamplesBinary.Strings {

    static final int CAPACITY = 500_000;
    static final RecordStrings SHARED = new RecordStrings();

    private final ConcurrentHashMap<ByteKey, String> strings = new ConcurrentHashMap<>();

    @Override
    public String get(byte[] bytes, int from, int length) {
        ByteKey probe = new ByteKey(bytes, from, length);
        String s = strings.get(probe);
        if (s != null) {
            return s;
        }
        if (strings.size() >= CAPACITY) {
            strings.clear();
        }
        s = new String(bytes, from, length, StandardCharsets.UTF_8);
        String before = strings.putIfAbsent(probe.copy(), s);
        return before == null ? s : before;
    }
}
