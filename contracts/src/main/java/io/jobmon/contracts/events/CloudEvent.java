package io.jobmon.contracts.events;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;

/**
 * A CloudEvents 1.0 envelope in structured JSON mode: every record on a jobmon topic is one.
 *
 * @param id unique per event; consumers use it (with the key) to drop duplicates
 * @param source the producing service, e.g. {@code /jobmon/event-ingest-service}
 * @param type reverse-DNS event type, e.g. {@code io.jobmon.job.status.v1}
 * @param subject the entity, usually the job id
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CloudEvent<T>(String specversion, String id, String source, String type, String subject,
        Instant time, String datacontenttype, T data) {

    public static final String SPEC_VERSION = "1.0";
    public static final String JSON = "application/json";
}
