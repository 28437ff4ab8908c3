package io.jobmon.logs;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/** Small conversions between Java values and the reactive client's column types. */
public final class Sql {

    /** The schema log-service owns (Flyway migrates it; the connections' search path names it). */
    public static final String SCHEMA = "logs";

    private Sql() {
    }

    public static OffsetDateTime ts(Instant i) {
        return i == null ? null : i.atOffset(ZoneOffset.UTC);
    }

    public static Instant instant(OffsetDateTime t) {
        return t == null ? null : t.toInstant();
    }
}
