package io.jobmon.metrics.remotewrite;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.WireFormat;
import io.jobmon.contracts.events.MetricLabels;
import io.jobmon.contracts.events.MetricSamples;
import io.jobmon.contracts.problem.ApiException;
import io.jobmon.metrics.ingest.ByteKey;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.xerial.snappy.Snappy;

/**
 * A Prometheus remote-write 1.0 body (snappy block format around a {@code prometheus.WriteRequest}, prompb of
 * prometheus/prometheus) as series per node. The node is the first of {@code nodeLabels} a series carries
 * ({@code instance} loses its port). NaN samples (staleness markers) and native histograms are skipped.
 * <p>
 * The message is read field by field (the generated {@code prompb} classes describe it; parsing into them made an
 * object per label and sample): a string that comes again in the request (label names, a GPU's labels on each of its
 * metrics) is decoded once, and a series' labels are one array ({@link MetricLabels}) that the record
 * written to Kafka takes as it is.
 */
public final class RemoteWriteDecoder {

    /** The series of a request by node, how many samples they hold and how many were skipped. */
    public record Decoded(Map<String, List<MetricSamples.Series>> byNode, int samples, int skipped) {
    }

    // the tags of the prompb fields read (types.proto, remote.proto): field number and wire type
    private static final int TIMESERIES_TAG = tag(1, WireFormat.WIRETYPE_LENGTH_DELIMITED);
    private static final int LABELS_TAG = tag(1, WireFormat.WIRETYPE_LENGTH_DELIMITED);
    private static final int SAMPLES_TAG = tag(2, WireFormat.WIRETYPE_LENGTH_DELIMITED);
    private static final int HISTOGRAMS_TAG = tag(4, WireFormat.WIRETYPE_LENGTH_DELIMITED);
    private static final int LABEL_NAME_TAG = tag(1, WireFormat.WIRETYPE_LENGTH_DELIMITED);
    private static final int LABEL_VALUE_TAG = tag(2, WireFormat.WIRETYPE_LENGTH_DELIMITED);
    private static final int SAMPLE_VALUE_TAG = tag(1, WireFormat.WIRETYPE_FIXED64);
    private static final int SAMPLE_TIMESTAMP_TAG = tag(2, WireFormat.WIRETYPE_VARINT);

    /** Series' label bytes read before, across requests (a few hundred bytes and one set of strings a series). */
    private static final LabelBlocks BLOCKS = new LabelBlocks(100_000);

    private RemoteWriteDecoder() {
    }

    private static int tag(int field, int wireType) {
        return field << 3 | wireType;
    }

    public static Decoded decode(byte[] body, List<String> nodeLabels) {
        byte[] raw;
        try {
            if (!Snappy.isValidCompressedBuffer(body)) {
                throw ApiException.invalid("body", "metrics.not-snappy");
            }
            raw = Snappy.uncompress(body);
        } catch (IOException e) {
            throw ApiException.invalid("body", "metrics.not-snappy");
        }
        try {
            return new Reader(raw, nodeLabels).request();
        } catch (IOException e) {
            throw ApiException.invalid("body", "metrics.not-write-request", e.getMessage());
        }
    }

    /** One request's reading state. */
    private static final class Reader {
        final byte[] raw;
        final CodedInputStream in;
        final List<String> nodeLabels;
        final Strings strings;
        final Map<String, List<MetricSamples.Series>> byNode = new HashMap<>();
        int count;
        /** Strings in {@link #pairs} after the last {@link #label} call. */
        int labelCount;
        int skipped;
        // one series' labels and points, reused
        String[] pairs = new String[32];
        long[] t = new long[16];
        double[] v = new double[16];

        Reader(byte[] raw, List<String> nodeLabels) {
            this.raw = raw;
            this.in = CodedInputStream.newInstance(raw);
            this.nodeLabels = nodeLabels;
            this.strings = new Strings(raw);
        }

        Decoded request() throws IOException {
            for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
                if (tag == TIMESERIES_TAG) {
                    int limit = in.pushLimit(in.readRawVarint32());
                    series();
                    in.popLimit(limit);
                } else {
                    in.skipField(tag);
                }
            }
            return new Decoded(byNode, count, skipped);
        }

        private void series() throws IOException {
            // the label fields first, as senders write them: found again by their bytes (LabelBlocks)
            int from = in.getTotalBytesRead();
            int end = from;
            int tag = in.readTag();
            while (tag == LABELS_TAG) {
                in.skipRawBytes(in.readRawVarint32());
                end = in.getTotalBytesRead();
                tag = in.readTag();
            }
            LabelBlocks.Labels known = end > from ? labels(from, end) : null;
            String name = known == null ? null : known.name();
            int labels = 0; // strings in pairs (label fields after the samples: rare)
            int n = 0;
            for (; tag != 0; tag = in.readTag()) {
                if (tag == LABELS_TAG) {
                    if (known != null) {
                        labels = known.pairs().length;
                        pairs = Arrays.copyOf(known.pairs(), Math.max(pairs.length, labels + 2));
                        known = null;
                    }
                    int limit = in.pushLimit(in.readRawVarint32());
                    name = label(in, 0, name, labels);
                    labels = this.labelCount;
                    in.popLimit(limit);
                } else if (tag == SAMPLES_TAG) {
                    int limit = in.pushLimit(in.readRawVarint32());
                    double value = 0;
                    long time = 0;
                    for (int st = in.readTag(); st != 0; st = in.readTag()) {
                        if (st == SAMPLE_VALUE_TAG) {
                            value = in.readDouble();
                        } else if (st == SAMPLE_TIMESTAMP_TAG) {
                            time = in.readInt64();
                        } else {
                            in.skipField(st);
                        }
                    }
                    in.popLimit(limit);
                    if (Double.isNaN(value)) {
                        skipped++; // a staleness marker
                        continue;
                    }
                    if (n == t.length) {
                        t = Arrays.copyOf(t, n * 2);
                        v = Arrays.copyOf(v, n * 2);
                    }
                    t[n] = time;
                    v[n++] = value;
                } else {
                    if (tag == HISTOGRAMS_TAG) {
                        skipped++;
                    }
                    in.skipField(tag);
                }
            }
            if (name == null || name.isEmpty()) {
                skipped += n; // with the NaN ones, every sample of the series
                return;
            }
            if (n == 0) {
                return;
            }
            MetricLabels own;
            String node;
            if (known != null) {
                own = known.labels();
                node = known.nodeLabels() == nodeLabels || known.nodeLabels().equals(nodeLabels) ? known.node()
                        : node(known.pairs(), nodeLabels);
            } else {
                // remote-write senders sort labels by name (the spec asks them to): sorted here only when not
                String[] sorted = sortedByName(Arrays.copyOf(pairs, labels));
                own = MetricLabels.ofPairs(sorted);
                node = node(sorted, nodeLabels);
            }
            byNode.computeIfAbsent(node, k -> new ArrayList<>()).add(new MetricSamples.Series(name, own,
                    Arrays.copyOf(t, n), Arrays.copyOf(v, n)));
            count += n;
        }

        /** The labels of the label fields in {@code raw[from, end)}: kept ones, else read and kept. */
        private LabelBlocks.Labels labels(int from, int end) throws IOException {
            ByteKey probe = new ByteKey(raw, from, end - from);
            LabelBlocks.Labels known = BLOCKS.get(probe);
            if (known != null) {
                return known;
            }
            CodedInputStream block = CodedInputStream.newInstance(raw, from, end - from);
            String name = null;
            int labels = 0;
            for (int tag = block.readTag(); tag != 0; tag = block.readTag()) {
                int limit = block.pushLimit(block.readRawVarint32());
                name = label(block, from, name, labels);
                labels = this.labelCount;
                block.popLimit(limit);
            }
            String[] sorted = sortedByName(Arrays.copyOf(pairs, labels));
            known = new LabelBlocks.Labels(name, MetricLabels.ofPairs(sorted), sorted, node(sorted, nodeLabels),
                    nodeLabels);
            BLOCKS.put(probe, known);
            return known;
        }

        /**
         * Reads one label message into {@link #pairs} after its first {@code labels} strings (the new count in
         * {@link #labelCount}); answers the metric name: {@code name} unless the label is {@code __name__}.
         */
        private String label(CodedInputStream s, int base, String name, int labels) throws IOException {
            String ln = "";
            String lv = "";
            for (int lt = s.readTag(); lt != 0; lt = s.readTag()) {
                if (lt == LABEL_NAME_TAG) {
                    ln = string(s, base);
                } else if (lt == LABEL_VALUE_TAG) {
                    lv = string(s, base);
                } else {
                    s.skipField(lt);
                }
            }
            this.labelCount = labels;
            if (ln.equals("__name__")) {
                return lv;
            }
            if (!lv.isEmpty()) {
                if (labels + 2 > pairs.length) {
                    pairs = Arrays.copyOf(pairs, pairs.length * 2);
                }
                pairs[labels++] = ln;
                pairs[labels++] = lv;
                this.labelCount = labels;
            }
            return name;
        }

        private String string(CodedInputStream s, int base) throws IOException {
            int len = s.readRawVarint32();
            int at = base + s.getTotalBytesRead();
            if (len < 0 || len > raw.length - at) {
                throw new InvalidProtocolBufferException("a string runs past the end of the message");
            }
            String value = strings.get(at, len);
            s.skipRawBytes(len);
            return value;
        }
    }

    /**
     * The name/value pairs by name, a name given twice keeping its last value (as a map would); the same array when
     * it is sorted already, as senders write it.
     */
    static String[] sortedByName(String[] pairs) {
        boolean sorted = true;
        for (int i = 2; i < pairs.length && sorted; i += 2) {
            sorted = pairs[i - 2].compareTo(pairs[i]) < 0;
        }
        if (sorted) {
            return pairs;
        }
        TreeMap<String, String> byName = new TreeMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            byName.put(pairs[i], pairs[i + 1]);
        }
        String[] out = new String[2 * byName.size()];
        int k = 0;
        for (Map.Entry<String, String> e : byName.entrySet()) {
            out[k++] = e.getKey();
            out[k++] = e.getValue();
        }
        return out;
    }

    /**
     * The strings of one request, each decoded once: found again by their bytes (hash, then compared), so a label
     * that every series of a GPU carries is one String. Invalid UTF-8 is refused, as protobuf does for
     * {@code string} fields.
     */
    static final class Strings {
        private final byte[] raw;
        private String[] values = new String[1024];
        private int[] offsets = new int[1024];
        private int[] lengths = new int[1024];
        private int[] hashes = new int[1024];
        private int size;

        Strings(byte[] raw) {
            this.raw = raw;
        }

        String get(int at, int len) throws InvalidProtocolBufferException {
            int h = len;
            for (int i = at, end = at + len; i < end; i++) {
                h = 31 * h + raw[i];
            }
            int mask = values.length - 1;
            for (int slot = h & mask;; slot = (slot + 1) & mask) {
                String s = values[slot];
                if (s == null) {
                    String fresh = decode(at, len);
                    values[slot] = fresh;
                    offsets[slot] = at;
                    lengths[slot] = len;
                    hashes[slot] = h;
                    if (++size * 2 > values.length) {
                        grow();
                    }
                    return fresh;
                }
                int o = offsets[slot];
                if (hashes[slot] == h && lengths[slot] == len && Arrays.equals(raw, o, o + len, raw, at, at + len)) {
                    return s;
                }
            }
        }

        private String decode(int at, int len) throws InvalidProtocolBufferException {
            for (int i = at, end = at + len; i < end; i++) {
                if (raw[i] < 0) {
                    try {
                        return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(raw, at, len)).toString();
                    } catch (CharacterCodingException e) {
                        throw new InvalidProtocolBufferException("a string field is not UTF-8");
                    }
                }
            }
            return new String(raw, at, len, StandardCharsets.ISO_8859_1);
        }

        private void grow() {
            String[] ov = values;
            int[] oo = offsets;
            int[] oh = hashes;
            int[] ol = lengths;
            int cap = ov.length * 2;
            values = new String[cap];
            offsets = new int[cap];
            hashes = new int[cap];
            lengths = new int[cap];
            for (int i = 0; i < ov.length; i++) {
                if (ov[i] != null) {
                    int slot = oh[i] & (cap - 1);
                    while (values[slot] != null) {
                        slot = (slot + 1) & (cap - 1);
                    }
                    values[slot] = ov[i];
                    offsets[slot] = oo[i];
                    hashes[slot] = oh[i];
                    lengths[slot] = ol[i];
                }
            }
        }
    }

    static String node(String[] pairs, List<String> nodeLabels) {
        for (String l : nodeLabels) {
            for (int i = 0; i < pairs.length; i += 2) {
                if (pairs[i].equals(l)) {
                    String v = pairs[i + 1];
                    if (l.equals("instance")) {
                        int colon = v.lastIndexOf(':');
                        return colon > 0 && v.indexOf(']') < colon ? v.substring(0, colon) : v;
                    }
                    return v;
                }
            }
        }
        return "unknown";
    }
}
