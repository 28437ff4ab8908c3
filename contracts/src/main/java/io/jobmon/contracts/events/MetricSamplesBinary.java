package io.jobmon.contracts.events;

import io.jobmon.contracts.bytes.ByteWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The binary form of a {@link MetricSamples} record on {@code jobmon.metrics.samples} (ADR 0007): what jobmon's
 * producers write since 2026-12-02, instead of the JSON CloudEvent, which consumers still read. A value starting
 * with the magic byte {@code 0x00} is this form; a JSON CloudEvent starts with <code>{</code> (or white space), so the
 * two are told apart by the first byte alone and records already on the topic stay valid.
 *
 * <pre>
 * value    = 0x00 'J' 'M' 'S'  version (1 byte, 1 = {@value #TYPE})  strings  node  series-count  series*
 * strings  = count  (byte-length  UTF-8 bytes)*        every name, label name and label value, each once
 * node     = string index + 1  (0: none; the record key names the node)
 * series   = name-index  label-count  (label-name-index  label-value-index)*  point-count
 *            first-time  time-delta*  value*
 * </pre>
 * Counts, indexes and lengths are unsigned LEB128 varints; times are epoch milliseconds, the first and then the
 * differences as zigzag varints; values are IEEE 754 doubles, 8 bytes big-endian (fields written and read by
 * {@code io.jobmon.contracts.bytes}). Labels are written as the series has them (producers sort them by name) and read
 * back in that order ({@link MetricLabels}); a series without labels reads back with an empty map; a label named twice
 * makes the record invalid.
 */
public final class MetricSamplesBinary {

    /** The first byte of a binary record: never the first byte of a JSON text. */
    public static final byte MAGIC = 0x00;
    public static final int VERSION = 1;
    /** The event this form carries (the CloudEvents type of the JSON form). */
    public static final String TYPE = MetricSamples.TYPE;
    private static final byte[] HEADER = {MAGIC, 'J', 'M', 'S', VERSION};
    private static final String[] NO_PAIRS = {};

    private MetricSamplesBinary() {
    }

    /** Whether the record value is of this form (else it is read as a JSON CloudEvent). */
    public static boolean isBinary(byte[] value) {
        return value != null && value.length > 0 && value[0] == MAGIC;
    }

    /** A node's series as a record value. */
    public static byte[] encode(String node, List<MetricSamples.Series> series) {
        Map<String, Integer> index = new HashMap<>();
        List<byte[]> strings = new ArrayList<>();
        int[] size = new int[1]; // UTF-8 bytes of the distinct strings: the value is sized once
        int points = 0;
        int labels = 0;
        for (MetricSamples.Series s : series) {
            labels += s.labels() == null ? 0 : s.labels().size();
        }
        // each series' name and label strings as indexes, found once: name, count, (name, value)*
        int[] refs = new int[2 * series.size() + 2 * labels];
        int k = 0;
        for (MetricSamples.Series s : series) {
            refs[k++] = intern(s.name(), index, strings, size);
            if (s.labels() instanceof MetricLabels l) {
                refs[k++] = l.size();
                for (String x : l.pairs) {
                    refs[k++] = intern(x, index, strings, size);
                }
            } else {
                Map<String, String> l = s.labels() == null ? Map.of() : s.labels();
                refs[k++] = l.size();
                for (Map.Entry<String, String> e : l.entrySet()) {
                    refs[k++] = intern(e.getKey(), index, strings, size);
                    refs[k++] = intern(e.getValue(), index, strings, size);
                }
            }
            points += s.size();
        }
        int nodeIndex = node == null ? 0 : 1 + intern(node, index, strings, size);
        ByteWriter w = new ByteWriter(HEADER.length + 5 * (2 + strings.size()) + size[0]
                + series.size() * 15 + labels * 6 + points * 12);
        w.put(HEADER);
        w.varint(strings.size());
        for (byte[] b : strings) {
            w.varint(b.length);
            w.put(b);
        }
        w.varint(nodeIndex);
        w.varint(series.size());
        k = 0;
        for (MetricSamples.Series s : series) {
            w.varint(refs[k++]);
            int count = refs[k++];
            w.varint(count);
            for (int j = 0; j < 2 * count; j++) {
                w.varint(refs[k++]);
            }
            long[] t = s.timestampsMs();
            double[] v = s.values();
            int n = s.size();
            w.varint(n);
            long prev = 0;
            for (int i = 0; i < n; i++) {
                w.zigzag(t[i] - prev);
                prev = t[i];
            }
            for (int i = 0; i < n; i++) {
                w.fixed64(Double.doubleToRawLongBits(v[i]));
            }
        }
        return w.toArray();
    }

    /** The string's index, added (its UTF-8 bytes counted in {@code size[0]}) when new. */
    private static int intern(String s, Map<String, Integer> index, List<byte[]> strings, int[] size) {
        if (s == null) {
            throw new IllegalArgumentException("a series' name, label name or label value is null");
        }
        Integer known = index.get(s);
        if (known != null) {
            return known;
        }
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        index.put(s, strings.size());
        strings.add(b);
        size[0] += b.length;
        return strings.size() - 1;
    }

    /**
     * Where a decoded record's strings come from: its UTF-8 bytes {@code bytes[from, from + length)} as a String. A
     * consumer may answer the same instance for the same bytes in every record (its series cache then compares
     * identical strings); the default makes a new one.
     */
    @FunctionalInterface
    public interface Strings {
        String get(byte[] bytes, int from, int length);
    }

    private static final Strings NEW_STRINGS = (b, from, length) -> new String(b, from, length, StandardCharsets.UTF_8);

    /**
     * The record, in the series form.
     *
     * @throws InvalidRecordException naming what is wrong (unknown version, truncated, an index out of range, bytes
     *     left over), for the dead-letter queue
     */
    public static MetricSamples decode(byte[] value) {
        return decode(value, NEW_STRINGS);
    }

    /** The same, the record's strings from {@code source}. */
    public static MetricSamples decode(byte[] value, Strings source) {
        if (!isBinary(value)) {
            throw new InvalidRecordException("not a binary metric-samples record (first byte is not 0x00)");
        }
        if (value.length < HEADER.length || value[1] != 'J' || value[2] != 'M' || value[3] != 'S') {
            throw new InvalidRecordException("not a binary metric-samples record (no 0x00 'JMS' header)");
        }
        if (value[4] != VERSION) {
            throw new InvalidRecordException("binary metric-samples version " + (value[4] & 0xff)
                    + " is not supported (only " + VERSION + ")");
        }
        MetricSamplesReader r = new MetricSamplesReader(value, HEADER.length);
        int count = r.count("strings", 1);
        String[] strings = new String[count];
        for (int i = 0; i < count; i++) {
            strings[i] = r.utf8(r.count("string bytes", 1), source);
        }
        int nodeIndex = r.varint("node");
        String node = nodeIndex == 0 ? null : r.string(strings, nodeIndex - 1, "node");
        int seriesCount = r.count("series", 3);
        List<MetricSamples.Series> series = new ArrayList<>(seriesCount);
        for (int i = 0; i < seriesCount; i++) {
            r.series = i;
            String name = r.string(strings, r.varint("name"), "name");
            int labelCount = r.count("labels", 2);
            String[] pairs = labelCount == 0 ? NO_PAIRS : new String[2 * labelCount];
            for (int j = 0; j < pairs.length; j++) {
                pairs[j] = r.string(strings, r.varint("label"), "label");
            }
            MetricLabels labels = new MetricLabels(pairs);
            String twice = labels.twice();
            if (twice != null) {
                throw new InvalidRecordException("series[" + i + "] ('" + name + "') has the label '" + twice
                        + "' twice");
            }
            int n = r.count("points", 9);
            long[] t = new long[n];
            double[] v = new double[n];
            long time = 0;
            for (int j = 0; j < n; j++) {
                time += r.zigzag();
                t[j] = time;
            }
            r.need(8L * n, "values");
            for (int j = 0; j < n; j++) {
                v[j] = Double.longBitsToDouble(r.fixed64());
            }
            series.add(new MetricSamples.Series(name, labels, t, v));
        }
        if (r.remaining() != 0) {
            throw new InvalidRecordException("binary metric-samples record has " + r.remaining()
                    + " bytes after its last series");
        }
        return MetricSamples.ofSeries(node, series);
    }
}
