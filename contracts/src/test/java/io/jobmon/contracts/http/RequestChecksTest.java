package io.jobmon.contracts.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Which bodies the charset rule looks at: JSON and text, never a binary body such as remote-write's protobuf. */
class RequestChecksTest {

    @Test
    void jsonAndTextBodiesHaveACharsetBinaryOnesDoNot() {
        assertTrue(RequestChecks.isText("application/json; charset=ISO-8859-1"));
        assertTrue(RequestChecks.isText("application/merge-patch+json"));
        assertTrue(RequestChecks.isText("text/plain"));
        assertFalse(RequestChecks.isText("application/x-protobuf; charset=ISO-8859-1"));
        assertFalse(RequestChecks.isText("application/octet-stream"));
        assertFalse(RequestChecks.isText(null));
    }

    @Test
    void theCharsetIsReadLowerCaseAndUnquoted() {
        assertEquals("iso-8859-1", RequestChecks.charset("application/json; charset=\"ISO-8859-1\""));
        assertEquals(null, RequestChecks.charset("application/json"));
    }
}
