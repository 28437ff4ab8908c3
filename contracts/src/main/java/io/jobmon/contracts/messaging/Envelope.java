package io.jobmon.contracts.messaging;

import io.jobmon.contracts.events.CloudEvent;
import io.jobmon.contracts.events.CloudEvents;
import io.jobmon.contracts.events.InvalidRecordException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.function.Function;

/**
 * The one envelope check of every consumer of jobmon's own CloudEvents: a record is taken only when it is a
 * CloudEvent of spec version 1.0, of exactly the type its channel expects, within the size bound, and — where the
 * topic is keyed by the event's subject — with key, subject and the data's own id all equal. Anything else fails
 * with {@link InvalidRecordException} naming what is wrong, for the dead-letter queue.
 *
 * @param type the CloudEvents {@code type} the channel takes, e.g. {@code io.jobmon.job.status.v1}
 * @param dataType the record of {@code data}
 * @param subjectOf the data's own subject (e.g. its jobId), or null when the key is not the subject
 * @param maxBytes the largest record value taken
 */
public record Envelope<T>(String type, Class<T> dataType, Function<T, String> subjectOf, int maxBytes) {

    /** 1 MiB: the broker's default largest record; every jobmon event is far smaller. */
    public static final int DEFAULT_MAX_BYTES = 1 << 20;

    /** A channel whose records are keyed by something else than the subject (e.g. cluster/namespace/pod). */
    public static <T> Envelope<T> of(String type, Class<T> dataType) {
        return new Envelope<>(type, dataType, null, DEFAULT_MAX_BYTES);
    }

    /** A channel keyed by the subject, which is also the data's {@code subjectOf}. */
    public static <T> Envelope<T> keyedBy(String type, Class<T> dataType, Function<T, String> subjectOf) {
        return new Envelope<>(type, dataType, subjectOf, DEFAULT_MAX_BYTES);
    }

    public Envelope<T> maxBytes(int bytes) {
        return new Envelope<>(type, dataType, subjectOf, bytes);
    }

    /**
     * @return the event, checked and decoded
     * @throws InvalidRecordException naming the first thing that is wrong
     */
    public CloudEvent<T> open(String key, String value) {
        if (value == null) {
            throw new InvalidRecordException("a tombstone (null value) where a " + type + " event is expected");
        }
        // A char is at most 3 UTF-8 bytes: count exactly only when the length alone cannot decide.
        if ((long) value.length() * 3 > maxBytes && value.getBytes(StandardCharsets.UTF_8).length > maxBytes) {
            throw new InvalidRecordException("record of " + value.getBytes(StandardCharsets.UTF_8).length
                    + " bytes is over the " + maxBytes + "-byte limit");
        }
        CloudEvent<T> event = CloudEvents.decode(value, dataType);
        if (!CloudEvent.SPEC_VERSION.equals(event.specversion())) {
            throw new InvalidRecordException("specversion '" + event.specversion() + "' is not "
                    + CloudEvent.SPEC_VERSION);
        }
        if (!type.equals(event.type())) {
            throw new InvalidRecordException("type '" + event.type() + "' is not " + type);
        }
        if (subjectOf != null) {
            String subject = event.subject();
            String own = subjectOf.apply(event.data());
            if (subject == null || !subject.equals(key) || !Objects.equals(subject, own)) {
                throw new InvalidRecordException("key '" + key + "', subject '" + subject + "' and data id '" + own
                        + "' must be equal");
            }
        }
        return event;
    }

    /** {@link #open} and its data. */
    public T data(String key, String value) {
        return open(key, value).data();
    }
}
