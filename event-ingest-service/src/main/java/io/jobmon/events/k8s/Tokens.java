package io.jobmon.events.k8s;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.jobmon.events.k8s.ObjectReader.Bail;
import io.jobmon.events.k8s.ObjectReader.Seen;
import java.io.IOException;
import java.time.Instant;

/** {@link ObjectReader}'s values: each read exactly as the tree-based parsers read it, or a {@link Bail}. */
final class Tokens {

    private Tokens() {
    }

    static String text(JsonParser p, JsonToken t, Seen f, int bit) throws IOException, Bail {
        f.once(bit);
        return text(p, t);
    }

    /** As {@code PodParser.text}: a string, null when null or empty; another type bails. */
    static String text(JsonParser p, JsonToken t) throws IOException, Bail {
        if (t == JsonToken.VALUE_NULL) {
            return null;
        }
        String s = strict(p, t);
        return s.isEmpty() ? null : s;
    }

    static String strict(JsonParser p, JsonToken t) throws IOException, Bail {
        if (t != JsonToken.VALUE_STRING) {
            throw Bail.INSTANCE;
        }
        return p.getText();
    }

    /** As {@code K8sTime.parse(JsonNode)}: a time from a string, null for anything else. */
    static Instant time(JsonParser p, JsonToken t, Seen f, int bit) throws IOException, Bail {
        f.once(bit);
        if (t == JsonToken.VALUE_STRING) {
            String s = p.getText();
            return s.isEmpty() ? null : K8sTime.parse(s);
        }
        p.skipChildren();
        return null;
    }

    /** A whole number that fits an int, or null for a JSON null; another type bails. */
    static Integer integer(JsonParser p, JsonToken t, Seen f, int bit) throws IOException, Bail {
        f.once(bit);
        if (t == JsonToken.VALUE_NULL) {
            return null;
        }
        if (t != JsonToken.VALUE_NUMBER_INT || p.getNumberType() != JsonParser.NumberType.INT) {
            throw Bail.INSTANCE;
        }
        return p.getIntValue();
    }

    static void expectObject(JsonToken t) throws Bail {
        if (t != JsonToken.START_OBJECT) {
            throw Bail.INSTANCE;
        }
    }

    static void expectArray(JsonToken t) throws Bail {
        if (t != JsonToken.START_ARRAY) {
            throw Bail.INSTANCE;
        }
    }

    /** An array to read, or a null (nothing); anything else bails. */
    static boolean arrayOrNull(JsonToken t) throws Bail {
        if (t == JsonToken.VALUE_NULL) {
            return false;
        }
        expectArray(t);
        return true;
    }
}
