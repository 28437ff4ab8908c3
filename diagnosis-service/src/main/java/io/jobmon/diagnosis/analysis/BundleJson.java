package io.jobmon.diagnosis.analysis;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Reads evidence bundles: one mapper whose limits fit bundles of tens of megabytes (long log lines). */
public final class BundleJson {

    public static final ObjectMapper MAPPER = JsonMapper.builder()
            .build();

    static {
        MAPPER.getFactory().setStreamReadConstraints(StreamReadConstraints.builder()
                .maxStringLength(64 * 1024 * 1024).maxNestingDepth(64).build());
    }

    private BundleJson() {
    }

    /** @throws com.fasterxml.jackson.core.JsonProcessingException (unchecked-wrapped) for malformed JSON */
    public static JsonNode read(byte[] json) {
        try {
            return MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new MalformedJson(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Malformed JSON: the REST layer answers 400 with the parser's message. */
    public static final class MalformedJson extends RuntimeException {
        public MalformedJson(JsonProcessingException cause) {
            super(cause.getOriginalMessage(), cause, false, false);
        }
    }
}
