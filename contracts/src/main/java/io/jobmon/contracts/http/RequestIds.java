package io.jobmon.contracts.http;

import java.util.UUID;
import java.util.regex.Pattern;
import org.jboss.logging.MDC;

/** The {@code X-Request-Id} of the request being served, kept in the logging MDC so every log line shows it. */
public final class RequestIds {

    public static final String HEADER = "X-Request-Id";
    public static final String MDC_KEY = "requestId";
    /** A caller-supplied id is kept only if it is short and plain, so it cannot forge log lines. */
    private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

    private RequestIds() {
    }

    /** The incoming id if it is safe, otherwise a new one. */
    public static String acceptOrCreate(String incoming) {
        return incoming != null && SAFE.matcher(incoming).matches() ? incoming : UUID.randomUUID().toString();
    }

    public static String current() {
        Object id = MDC.get(MDC_KEY);
        return id == null ? null : id.toString();
    }
}
