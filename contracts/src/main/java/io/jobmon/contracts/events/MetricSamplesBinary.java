package io.jobmon.contracts.events;

import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

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
 * differences as zigzag varints; values are IEEE 754 doubles, 8 bytes big-endian. Labels are written as the series
 * has them (producers sort them by name) and read back in that order ({@link Labels}); a series without labels reads
 * back with an empty map; a label named twice makes the record invalid.
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
        int stringBytes = 0; // UTF-8 bytes of the distinct strings: the value is sized once
        int points = 0;
        int labels = 0;
        for (MetricSamples.Series s : series) {
            stringBytes += intern(s.name(), index, strings);
            if (s.labels() instanceof Labels l) {
                for (String x : l.pairs) {
                    stringBytes += intern(x, index, strings);
                }
                labels += l.size();
            } else if (s.labels() != null) {
                for (Map.Entry<String, String> l : s.labels().entrySet()) {
                    stringBytes += intern(l.getKey(), index, strings) + intern(l.getValue(), index, strings);
                }
                labels += s.labels().size();
            }
            points += s.size();
        }
        if (node != null) {
            stringBytes += intern(node, index, strings);
        }
        int nodeIndex = node == null ? 0 : 1 + index.get(node);
        Writer w = new Writer(HEADER.length + 5 * (2 + strings.size()) + stringBytes
                + series.size() * 15 + labels * 6 + points * 12);
        w.bytes(HEADER);
        w.varint(strings.size());
        for (byte[] b : strings) {
            w.varint(b.length);
            w.bytes(b);
        }
        w.varint(nodeIndex);
        w.varint(series.size());
        for (MetricSamples.Series s : series) {
            w.varint(index.get(s.name()));
            if (s.labels() instanceof Labels l) {
                w.varint(l.size());
                for (String x : l.pairs) {
                    w.varint(index.get(x));
                }
            } else {
                Map<String, String> l = s.labels() == null ? Map.of() : s.labels();
                w.varint(l.size());
                for (Map.Entry<String, String> e : l.entrySet()) {
                    w.varint(index.get(e.getKey()));
                    w.varint(index.get(e.getValue()));
                }
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
        return w.done();
    }

    private static int intern(String s, Map<String, Integer> index, List<byte[]> strings) {
        if (s == null) {
            throw new IllegalArgumentException("a series' name, label name or label value is null");
        }
        if (index.containsKey(s)) {
            return 0;
        }
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        index.put(s, strings.size());
        strings.add(b);
        return b.length;
    }

    /**
     * The record, in the series form.
     *
     * @throws InvalidRecordException naming what is wrong (unknown version, truncated, an index out of range, bytes
     *     left over), for the dead-letter queue
     */
    public static MetricSamples decode(byte[] value) {
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
        Reader r = new Reader(value, HEADER.length);
        int count = r.count("strings", 1);
        String[] strings = new String[count];
        for (int i = 0; i < count; i++) {
            int len = r.count("string bytes", 1);
            strings[i] = new String(value, r.pos, len, StandardCharsets.UTF_8);
            r.pos += len;
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
            Labels labels = new Labels(pairs);
            if (!labels.sorted) {
                for (int j = 0; j < pairs.length; j += 2) {
                    for (int k = j + 2; k < pairs.length; k += 2) {
                        if (pairs[j].equals(pairs[k])) {
                            throw new InvalidRecordException("series[" + i + "] ('" + name + "') has the label '"
                                    + pairs[j] + "' twice");
                        }
                    }
                }
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
        if (r.pos != value.length) {
            throw new InvalidRecordException("binary metric-samples record has " + (value.length - r.pos)
                    + " bytes after its last series");
        }
        return MetricSamples.ofSeries(node, series);
    }

    /**
     * A decoded series' labels: names and values alternating, in the record's order, backed by one array whose
     * strings the record's series share. Read-only.
     */
    public static final class Labels extends AbstractMap<String, String> {

        private final String[] pairs;
        /** Names strictly ascending and no value empty: then the pairs are already a series' identity. */
        private final boolean sorted;

        /** Labels of names and values alternating; the array is kept, not copied. */
        public static Labels ofPairs(String... pairs) {
            if (pairs.length % 2 != 0) {
                throw new IllegalArgumentException("names and values alternate: an even count expected");
            }
            return new Labels(pairs);
        }

        Labels(String[] pairs) {
            this.pairs = pairs;
            boolean s = true;
            for (int i = 0; i < pairs.length && s; i += 2) {
                s = !pairs[i + 1].isEmpty() && (i == 0 || pairs[i - 2].compareTo(pairs[i]) < 0);
            }
            this.sorted = s;
        }

        /**
         * The names and values alternating when the names are strictly ascending and no value is empty (what jobmon's
         * producers write), else null. The array itself: not to be changed.
         */
        public String[] sortedPairs() {
            return sorted ? pairs : null;
        }

        @Override
        public int size() {
            return pairs.length / 2;
        }

        @Override
        public String get(Object key) {
            for (int i = 0; i < pairs.length; i += 2) {
                if (pairs[i].equals(key)) {
                    return pairs[i + 1];
                }
            }
            return null;
        }

        @Override
        public boolean containsKey(Object key) {
            return get(key) != null;
        }

        @Override
        public Set<Entry<String, String>> entrySet() {
            return new AbstractSet<>() {
                @Override
                public int size() {
                    return pairs.length / 2;
                }

                @Override
                public Iterator<Entry<String, String>> iterator() {
                    return new Iterator<>() {
                        int i;

                        @Override
                        public boolean hasNext() {
                            return i < pairs.length;
                        }

                        @Override
                        public Entry<String, String> next() {
                            if (i >= pairs.length) {
                                throw new NoSuchElementException();
                            }
                            Entry<String, String> e = new SimpleImmutableEntry<>(pairs[i], pairs[i + 1]);
                            i += 2;
                            return e;
                        }
                    };
                }
            };
        }
    }

    /**
     * Reads varints and fixed fields, failing with the record's fault, never an index exception. What is read is
     * named by a constant and the series being read ({@link #series}): a message is built only for a broken record.
     */
    private static final class Reader {
        final byte[] b;
        int pos;
        /** The series being read, -1 before the first. */
        int series = -1;

        Reader(byte[] b, int pos) {
            this.b = b;
            this.pos = pos;
        }

        void need(long bytes, String what) {
            if (bytes > b.length - pos) {
                throw new InvalidRecordException("binary metric-samples record truncated: " + what + where() + " need "
                        + bytes + " bytes at byte " + pos + ", " + (b.length - pos) + " left");
            }
        }

        long varlong(String what) {
            long v = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                if (pos >= b.length) {
                    throw new InvalidRecordException("binary metric-samples record truncated in " + what + where()
                            + " at byte " + pos);
                }
                byte x = b[pos++];
                v |= (long) (x & 0x7f) << shift;
                if (x >= 0) {
                    return v;
                }
            }
            throw new InvalidRecordException("binary metric-samples record has a varint over 10 bytes in " + what
                    + where() + " at byte " + pos);
        }

        int varint(String what) {
            long v = varlong(what);
            if (v < 0 || v > Integer.MAX_VALUE) {
                throw new InvalidRecordException("binary metric-samples record has " + what + where() + " " + v
                        + " out of range at byte " + pos);
            }
            return (int) v;
        }

        /** A count of items each at least {@code minBytes} long: never more than the bytes left can hold. */
        int count(String what, int minBytes) {
            int n = varint(what);
            if ((long) n * minBytes > b.length - pos) {
                need((long) n * minBytes, n + " " + what);
            }
            return n;
        }

        String where() {
            return series < 0 ? "" : " of series[" + series + "]";
        }

        long zigzag() {
            long v = varlong("times");
            return (v >>> 1) ^ -(v & 1);
        }

        long fixed64() {
            long v = 0;
            for (int i = 0; i < 8; i++) {
                v = v << 8 | (b[pos++] & 0xff);
            }
            return v;
        }

        String string(String[] strings, int i, String what) {
            if (i >= strings.length) {
                throw new InvalidRecordException("binary metric-samples record: " + what + where() + " names string "
                        + i + " of " + strings.length);
            }
            return strings[i];
        }
    }

    /** A growable byte array. */
    private static final class Writer {
        byte[] b;
        int pos;

        Writer(int size) {
            b = new byte[Math.max(16, size)];
        }

        private void room(int n) {
            if (pos + n > b.length) {
                b = Arrays.copyOf(b, Math.max(b.length * 2, pos + n));
            }
        }

        void bytes(byte[] x) {
            room(x.length);
            System.arraycopy(x, 0, b, pos, x.length);
            pos += x.length;
        }

        void varint(long v) {
            room(10);
            while ((v & ~0x7fL) != 0) {
                b[pos++] = (byte) ((v & 0x7f) | 0x80);
                v >>>= 7;
            }
            b[pos++] = (byte) v;
        }

        void zigzag(long v) {
            varint((v << 1) ^ (v >> 63));
        }

        void fixed64(long v) {
            room(8);
            for (int i = 56; i >= 0; i -= 8) {
                b[pos++] = (byte) (v >>> i);
            }
        }

        byte[] done() {
            return pos == b.length ? b : Arrays.copyOf(b, pos);
        }
    }
}
