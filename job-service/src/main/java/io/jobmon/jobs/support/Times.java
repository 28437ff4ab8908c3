package io.jobmon.jobs.support;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/** Instants to and from the PostgreSQL client's {@code timestamptz} type. */
public final class Times {

    private Times() {
    }

    public static OffsetDateTime db(Instant instant) {
        return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
    }

    public static Instant instant(OffsetDateTime value) {
        return value == null ? null : value.toInstant();
    }
}
