package io.jobmon.diagnosis.engine;

import java.time.Instant;

/**
 * One match of a catalogue pattern.
 *
 * @param pattern the pattern
 * @param source  {@code log|event|pod|job}
 * @param time    when (null for pod states and untimed lines)
 * @param pod     the pod it concerns, or null
 * @param node    the node it concerns, or null
 * @param quote   the text to quote as evidence
 * @param quoteZh its Chinese form when jobmon wrote it (a pod or container state), null for the cluster's words
 * @param detail  the pattern's detail group, or null
 * @param order   position in the scan, for stable ordering
 */
record Finding(PatternCatalogue.PatternSpec pattern, String source, Instant time, String pod, String node,
               String quote, String quoteZh, String detail, int order) {

    BilingualEvidence toEvidence() {
        return new BilingualEvidence(source, time, pod, new Localized(quote, quoteZh));
    }
}
