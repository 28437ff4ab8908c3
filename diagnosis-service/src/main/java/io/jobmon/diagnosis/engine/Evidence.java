package io.jobmon.diagnosis.engine;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.time.Instant;
import java.util.Objects;

/**
 * One quoted piece of evidence of a {@link Diagnosis}: a log line, an event, a pod status, a metric
 * window or a job field, so a person can check the conclusion.
 *
 * <p>JSON: {@code {"source": "log", "time": "2026-07-13T10:14:59.000Z", "pod": "w-0", "text": "..."}}.
 * {@code time} is written as the API's RFC 3339 UTC time to the millisecond by {@link EngineJson} (no JavaTimeModule needed);
 * {@code time} and {@code pod} may be {@code null}.
 *
 * @param source one of {@link #LOG}, {@link #EVENT}, {@link #POD}, {@link #METRIC}, {@link #JOB}
 * @param time   when it was observed, or {@code null} if unknown
 * @param pod    the pod it concerns, or {@code null}
 * @param text   the quoted text
 */
@JsonPropertyOrder({"source", "time", "pod", "text"})
public record Evidence(
        String source,
        @JsonSerialize(using = EngineJson.InstantSerializer.class)
        @JsonDeserialize(using = EngineJson.InstantDeserializer.class)
        Instant time,
        String pod,
        String text) {

    public static final String LOG = "log";
    public static final String EVENT = "event";
    public static final String POD = "pod";
    public static final String METRIC = "metric";
    public static final String JOB = "job";

    public Evidence {
        Objects.requireNonNull(source, "source");
        text = text == null ? "" : text;
    }
}
