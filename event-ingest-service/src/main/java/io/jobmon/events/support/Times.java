package io.jobmon.events.support;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/** Instants to and from the reactive client's {@code timestamptz} values (UTC). */
public final class Times {

    private Times() {
    }

    public static OffsetDateTime ts(Instant i) {
        return i == null ? null : i.atOffset(ZoneOffset.UTC);
    }

    public static Instant instant(OffsetDateTime t) {
        return t == null ? null : t.toInstant();
    }
}
