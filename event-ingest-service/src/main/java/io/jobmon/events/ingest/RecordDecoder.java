package io.jobmon.events.ingest;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.jobmon.contracts.events.CloudEvent;
import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.InvalidRecordException;
import io.jobmon.contracts.events.K8sRawObject;
import io.jobmon.contracts.messaging.Envelope;
import io.jobmon.contracts.messaging.Envelopes;
import io.jobmon.events.k8s.EventParser;
import io.jobmon.events.k8s.ObjectReader;
import io.jobmon.events.k8s.PodParser;
import io.jobmon.events.k8s.PodView;
import io.jobmon.events.k8s.K8sTime;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * Turns a record value of {@code jobmon.k8s.raw} into a {@link RawRecord}, or says why it is invalid.
 *
 * <p>Two ways, one result. The fast way reads the CloudEvent and its Pod or Event with Jackson's streaming parser
 * straight into the views ({@link ObjectReader}): no tree of the object, whose spec and most of whose status the
 * service never reads. The general way — the envelope check of the suite ({@link Envelopes#K8S_RAW}), the object
 * as a tree, {@link PodParser} / {@link EventParser} — takes every record the fast way gives up on: anything
 * unusual, and every invalid record, so the dead-letter reasons are the general way's.
 */
public final class RecordDecoder {

    private static final JsonFactory JSON = CloudEvents.MAPPER.getFactory();
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private RecordDecoder() {
    }

    /**
     * @return the record, or null when it is valid but carries nothing to store (an Event's expiry: events are
     *         kept past Kubernetes' TTL, so their deletion is ignored)
     * @throws InvalidRecordException with the reason the DLQ records
     */
    public static RawRecord decode(String key, byte[] value, int partition, long offset, Instant kafkaTime) {
        return decode(key, new RawValue.Reader().deserialize(null, value), partition, offset, kafkaTime);
    }

    /** The same for a value the consumer's deserializer has already read ({@link RawValue.Reader}). */
    public static RawRecord decode(String key, RawValue value, int partition, long offset, Instant kafkaTime) {
        RawRecord fast = value.fast();
        if (fast == NOTHING) {
            return null;
        }
        if (fast != null) {
            return fast.at(partition, offset, kafkaTime);
        }
        // As Kafka's string deserializer reads it (malformed UTF-8 becomes U+FFFD), then the general way.
        byte[] bytes = value.bytes();
        return general(key, bytes == null ? null : new String(bytes, StandardCharsets.UTF_8), partition, offset, kafkaTime);
    }

    /** The general way: the suite's envelope check, the object as a tree, the parsers. */
    static RawRecord general(String key, String value, int partition, long offset, Instant kafkaTime) {
        K8sRawObject raw = Envelopes.K8S_RAW.data(key, value);
        boolean deleted = "DELETED".equals(raw.watchType());
        if ("Pod".equals(raw.kind())) {
            PodView pod = PodParser.parse(raw.object(), deleted);
            String jobId = raw.jobId() != null ? raw.jobId() : pod.jobId();
            return new RawRecord(partition, offset, kafkaTime, raw.cluster(), raw.region(), jobId, pod, null);
        }
        if (deleted) {
            return null;
        }
        return new RawRecord(partition, offset, kafkaTime, raw.cluster(), raw.region(), raw.jobId(), null,
                EventParser.parse(raw.object()));
    }

    /** The fast way, or null: then the general way decides (also that a record is invalid). */
    static RawRecord fast(byte[] value, int partition, long offset, Instant kafkaTime) {
        // '{' then a byte that is not 0: Jackson reads it as UTF-8 (no UTF-16/32 detection can apply); only
        // well-formed UTF-8, so that every string reads as the general way's string of the record would.
        if (value == null || value.length < 2 || value.length > Envelope.DEFAULT_MAX_BYTES || value[0] != '{'
                || value[1] == 0 || !wellFormedUtf8(value)) {
            return null;
        }
        try (JsonParser p = JSON.createParser(value)) {
            return envelope(p, partition, offset, kafkaTime);
        } catch (IOException | ObjectReader.Bail | RuntimeException e) {
            return null;
        }
    }

    private static RawRecord envelope(JsonParser p, int partition, long offset, Instant kafkaTime)
            throws IOException, ObjectReader.Bail {
        if (p.nextToken() != JsonToken.START_OBJECT) {
            return null;
        }
        int seen = 0;
        String specversion = null, id = null, type = null;
        Data data = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken t = p.nextToken();
            int bit = switch (field) {
                case "specversion" -> 1;
                case "id" -> 2;
                case "type" -> 4;
                case "data" -> 8;
                case "source" -> 16;
                case "subject" -> 32;
                case "datacontenttype" -> 64;
                case "time" -> 128;
                default -> 0;
            };
            if ((seen & bit) != 0) {
                return null; // twice: the general way reads it as Jackson does
            }
            seen |= bit;
            switch (bit) {
                case 1 -> specversion = string(p, t);
                case 2 -> id = string(p, t);
                case 4 -> type = string(p, t);
                case 8 -> {
                    if (t != JsonToken.START_OBJECT) {
                        return null;
                    }
                    data = data(p);
                }
                case 16, 32, 64 -> string(p, t);
                case 128 -> {
                    // K8sTime takes exactly the RFC 3339 UTC times Instant.parse takes (the usual form without a
                    // formatter); anything else the general way judges.
                    if (t == JsonToken.VALUE_STRING ? K8sTime.parse(p.getText()) == null : t != JsonToken.VALUE_NULL) {
                        return null;
                    }
                }
                default -> p.skipChildren();
            }
        }
        if (data == null || id == null || !CloudEvent.SPEC_VERSION.equals(specversion) || !K8sRawObject.TYPE.equals(type)
                || data.cluster == null || data.cluster.isBlank() || data.object == null || !data.object.named()) {
            return null;
        }
        ObjectReader.Fields o = data.object;
        boolean deleted = "DELETED".equals(data.watchType);
        if ("Pod".equals(o.kind())) {
            PodView pod = o.pod(deleted);
            String jobId = data.jobId != null ? data.jobId : pod.jobId();
            return new RawRecord(partition, offset, kafkaTime, data.cluster, data.region, jobId, pod, null);
        }
        if (!"Event".equals(o.kind())) {
            return null;
        }
        // An Event's expiry (DELETED) is valid and carries nothing, but only once the event is known to be valid.
        RawRecord r = new RawRecord(partition, offset, kafkaTime, data.cluster, data.region, data.jobId, null, o.event());
        return deleted ? NOTHING : r;
    }

    /** Marks a valid record that carries nothing (the caller returns null for it). */
    static final RawRecord NOTHING = new RawRecord(-1, -1, null, null, null, null, null, null);

    /** {@code data}: a {@link K8sRawObject} with its object read. */
    private static final class Data {
        String cluster, region, watchType, jobId;
        ObjectReader.Fields object;
    }

    private static Data data(JsonParser p) throws IOException, ObjectReader.Bail {
        Data d = new Data();
        int seen = 0;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken t = p.nextToken();
            int bit = switch (field) {
                case "cluster" -> 1;
                case "region" -> 2;
                case "watchType" -> 4;
                case "jobId" -> 8;
                case "object" -> 16;
                default -> 0;
            };
            if ((seen & bit) != 0) {
                throw ObjectReader.Bail.INSTANCE;
            }
            seen |= bit;
            switch (bit) {
                case 1 -> d.cluster = string(p, t);
                case 2 -> d.region = string(p, t);
                case 4 -> d.watchType = string(p, t);
                case 8 -> d.jobId = string(p, t);
                case 16 -> {
                    if (t != JsonToken.START_OBJECT) {
                        throw ObjectReader.Bail.INSTANCE;
                    }
                    d.object = ObjectReader.read(p);
                }
                default -> p.skipChildren();
            }
        }
        return d;
    }

    /** Plain ASCII (nearly every record), else what Java's strict UTF-8 decoder takes. */
    static boolean wellFormedUtf8(byte[] b) {
        // ASCII, the usual case, eight bytes at a time (no byte with its high bit set); the rest byte by byte.
        int i = 0;
        for (int end = b.length - 7; i < end; i += 8) {
            if (((long) LONGS.get(b, i) & 0x8080808080808080L) != 0) {
                break;
            }
        }
        for (; i < b.length; i++) {
            if (b[i] < 0) {
                try {
                    StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                            .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(b));
                    return true;
                } catch (CharacterCodingException e) {
                    return false;
                }
            }
        }
        return true;
    }

    /** A string as Jackson binds it to a String, for a string or null; another type bails. */
    private static String string(JsonParser p, JsonToken t) throws IOException, ObjectReader.Bail {
        if (t == JsonToken.VALUE_NULL) {
            return null;
        }
        if (t != JsonToken.VALUE_STRING) {
            throw ObjectReader.Bail.INSTANCE;
        }
        return p.getText();
    }
}
